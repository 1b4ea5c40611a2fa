// Command nk3 computes Node Kayles on the 3 × n grid for n = 1 … upto
// with the strip engine (explore/nodekayles/internal/strip), one memo for
// the range, and prints each term with the CPU time, the memo and the
// process's peak memory so far: the second method of the terms past
// A316632 (the first is explore/cellgame with folding).
//
//	go build -o /tmp/nk3 ./explore/nodekayles/internal/nk3
//	nice -n 5 /usr/bin/time -v /tmp/nk3 -upto 30 -workers 2 -max-bytes 12GiB
package main

import (
	"context"
	"flag"
	"fmt"
	"os"
	"os/signal"
	"runtime/pprof"
	"strconv"
	"strings"
	"syscall"

	"github.com/nimbook/nimbook/explore/nodekayles/internal/strip"
)

func main() {
	upto := flag.Int("upto", 24, "last n")
	workers := flag.Int("workers", 2, "goroutines sharing the moves")
	maxBytes := flag.String("max-bytes", "0", "bound of the memo (e.g. 12GiB; 0 none)")
	profile := flag.String("cpuprofile", "", "write a CPU profile to this file")
	flag.Parse()
	if *profile != "" {
		f, err := os.Create(*profile)
		if err != nil {
			fmt.Fprintln(os.Stderr, "nk3:", err)
			os.Exit(1)
		}
		pprof.StartCPUProfile(f)
		defer pprof.StopCPUProfile()
	}
	if err := run(*upto, *workers, *maxBytes); err != nil {
		fmt.Fprintln(os.Stderr, "nk3:", err)
		pprof.StopCPUProfile()
		os.Exit(1)
	}
}

func parseBytes(s string) (int64, error) {
	mult := int64(1)
	for suf, m := range map[string]int64{"KiB": 1 << 10, "MiB": 1 << 20, "GiB": 1 << 30} {
		if strings.HasSuffix(s, suf) {
			s, mult = strings.TrimSuffix(s, suf), m
		}
	}
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return 0, fmt.Errorf("-max-bytes %q: want a size such as 12GiB", s)
	}
	return n * mult, nil
}

func run(upto, workers int, maxBytes string) error {
	if upto < 1 || upto > strip.MaxCols {
		return fmt.Errorf("-upto %d: want 1 to %d", upto, strip.MaxCols)
	}
	max, err := parseBytes(maxBytes)
	if err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	s, err := strip.New(strip.Options{Workers: workers, MaxBytes: max})
	if err != nil {
		return err
	}
	fmt.Println("n\tvalue\tcpu_s\tentries\tnarrow\tmemo_bytes\tmax_rss_kib")
	for n := 1; n <= upto; n++ {
		v, err := s.Value(ctx, strip.Full(n))
		if err != nil {
			return fmt.Errorf("3 × %d: %w", n, err)
		}
		var ru syscall.Rusage
		syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
		cpu := float64(ru.Utime.Sec+ru.Stime.Sec) + float64(ru.Utime.Usec+ru.Stime.Usec)/1e6
		st := s.Stats()
		fmt.Printf("%d\t%d\t%.2f\t%d\t%d\t%d\t%d\n", n, v, cpu, st.Entries, st.Small, st.Bytes, ru.Maxrss)
	}
	return nil
}
