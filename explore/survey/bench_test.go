package survey

import (
	"context"
	"os"
	"path/filepath"
	"testing"
)

// benchSurvey runs every variant of src with jobs at once into a new
// database, b.N times.
func benchSurvey(b *testing.B, src string, jobs int) {
	s, err := Parse("bench.yaml", []byte(src), Options{})
	if err != nil {
		b.Fatal(err)
	}
	dir := b.TempDir()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		st, err := Create(filepath.Join(dir, "b"+string(rune('a'+i%26))+".db"), s)
		if err != nil {
			b.Fatal(err)
		}
		p, err := NewPlan(context.Background(), s, s.Variants, jobs)
		if err != nil {
			b.Fatal(err)
		}
		sum, err := Run(context.Background(), s, st, p, RunOptions{})
		st.Close()
		if err != nil || sum.Done != len(s.Variants) {
			b.Fatalf("%+v %v", sum, err)
		}
		b.StopTimer()
		for _, suffix := range []string{"", "-wal", "-shm"} {
			_ = os.Remove(filepath.Join(dir, "b"+string(rune('a'+i%26))+".db"+suffix))
		}
		b.StartTimer()
	}
}

// The figures: the 63 two-digit codes to 2000 in under 2 s; the
// 511 codes of at most three digits to 3000 at least 1.6× faster on two
// cores than on one.
const (
	octal2 = "survey: {octal: {digits: 2, upto: 2000}}\nshow: [period, values]\n"
	octal3 = "survey: {octal: {digits: 3, upto: 3000}}\nshow: [period, values]\n"
)

func BenchmarkOctalTwoDigits(b *testing.B)        { benchSurvey(b, octal2, 0) }
func BenchmarkOctalThreeDigitsJobs1(b *testing.B) { benchSurvey(b, octal3, 1) }
func BenchmarkOctalThreeDigitsJobs2(b *testing.B) { benchSurvey(b, octal3, 2) }
