package slurm

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/nimbook/nimbook/cmd/nimbook/internal/e2e"
)

// needSlurm skips the test when Slurm, munge or root are missing, unless
// NIMBOOK_E2E=1, which makes that a failure.
func needSlurm(t *testing.T) {
	t.Helper()
	var missing []string
	for _, p := range []string{"/usr/sbin/slurmctld", "/usr/sbin/slurmd", "/usr/sbin/munged"} {
		if _, err := os.Stat(p); err != nil {
			missing = append(missing, p)
		}
	}
	for _, c := range []string{"sbatch", "scontrol", "sinfo", "runuser"} {
		if _, err := exec.LookPath(c); err != nil {
			missing = append(missing, c)
		}
	}
	if os.Geteuid() != 0 {
		missing = append(missing, "root (the test starts slurmctld and slurmd)")
	}
	if len(missing) == 0 {
		return
	}
	msg := fmt.Sprintf("a Slurm cluster needs %s (apt-get install slurm-wlm munge, as root)", strings.Join(missing, ", "))
	if os.Getenv("NIMBOOK_E2E") == "1" {
		t.Fatal("NIMBOOK_E2E=1 but " + msg)
	}
	t.Skip(msg)
}

// cluster is a single-node Slurm cluster of the test's own, started from
// Debian's packages as ../shared/SLURM.md describes.
type cluster struct {
	dir, conf string
}

func pidOf(t *testing.T, file string) int {
	t.Helper()
	data, err := os.ReadFile(file)
	if err != nil {
		return 0
	}
	pid, _ := strconv.Atoi(strings.TrimSpace(string(data)))
	return pid
}

// stopPID sends SIGTERM to pid and waits (at most 5 s) for it to exit.
func stopPID(pid int) {
	if pid <= 0 {
		return
	}
	syscall.Kill(pid, syscall.SIGTERM)
	for i := 0; i < 50; i++ {
		if syscall.Kill(pid, 0) != nil {
			return
		}
		time.Sleep(100 * time.Millisecond)
	}
	syscall.Kill(pid, syscall.SIGKILL)
}

func startCluster(t *testing.T) *cluster {
	t.Helper()
	start := time.Now()
	d := t.TempDir()
	for _, sub := range []string{"state", "spool", "log"} {
		if err := os.MkdirAll(filepath.Join(d, sub), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	run := func(name string, args ...string) {
		t.Helper()
		if out, err := exec.Command(name, args...).CombinedOutput(); err != nil {
			t.Fatalf("%s %v: %v\n%s", name, args, err, out)
		}
	}
	// munge authenticates Slurm's messages; start it unless it runs.
	if err := exec.Command("pgrep", "-x", "munged").Run(); err != nil {
		run("mkdir", "-p", "/run/munge")
		run("chown", "munge:munge", "/run/munge")
		if fi, err := os.Stat("/etc/munge/munge.key"); err != nil || fi.Size() == 0 {
			run("sh", "-c", "dd if=/dev/urandom bs=1 count=1024 of=/etc/munge/munge.key 2>/dev/null && chown munge:munge /etc/munge/munge.key && chmod 400 /etc/munge/munge.key")
		}
		// Left running: another run of the tests (two at once, as on a
		// loaded machine) may authenticate with it by the time this one
		// ends.
		run("runuser", "-u", "munge", "--", "/usr/sbin/munged")
	}
	host, err := exec.Command("hostname", "-s").Output()
	if err != nil {
		t.Fatal(err)
	}
	h := strings.TrimSpace(string(host))
	mem := 2048
	if f, err := os.Open("/proc/meminfo"); err == nil {
		sc := bufio.NewScanner(f)
		for sc.Scan() {
			var kb int
			if n, _ := fmt.Sscanf(sc.Text(), "MemTotal: %d kB", &kb); n == 1 {
				mem = max(kb/1024-1024, 512)
			}
		}
		f.Close()
	}
	// Ports of the cluster's own: another run of the tests may have a
	// cluster of its own on this machine at the same time.
	ports := freePorts(t, 2)
	conf := filepath.Join(d, "slurm.conf")
	text := fmt.Sprintf(`ClusterName=nimbooktest
SlurmctldHost=%[1]s
SlurmctldPort=%[5]d
SlurmdPort=%[6]d
SlurmUser=root
SlurmdUser=root
AuthType=auth/munge
StateSaveLocation=%[2]s/state
SlurmdSpoolDir=%[2]s/spool
SlurmctldPidFile=%[2]s/slurmctld.pid
SlurmdPidFile=%[2]s/slurmd.pid
SlurmctldLogFile=%[2]s/log/slurmctld.log
SlurmdLogFile=%[2]s/log/slurmd.log
ProctrackType=proctrack/linuxproc
TaskPlugin=task/none
SchedulerType=sched/backfill
SelectType=select/cons_tres
SelectTypeParameters=CR_Core
ReturnToService=2
MpiDefault=none
JobAcctGatherType=jobacct_gather/none
AccountingStorageType=accounting_storage/none
NodeName=%[1]s CPUs=%[3]d RealMemory=%[4]d State=UNKNOWN
PartitionName=main Nodes=%[1]s Default=YES MaxTime=INFINITE State=UP
`, h, d, max(1, numCPU()), mem, ports[0], ports[1])
	if err := os.WriteFile(conf, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	c := &cluster{dir: d, conf: conf}
	run("/usr/sbin/slurmctld", "-f", conf, "-i")
	t.Cleanup(func() { stopPID(pidOf(t, filepath.Join(d, "slurmctld.pid"))) })
	run("/usr/sbin/slurmd", "-f", conf)
	// Stopped first (cleanups run last in, first out).
	t.Cleanup(func() { stopPID(pidOf(t, filepath.Join(d, "slurmd.pid"))) })
	deadline := time.Now().Add(e2e.HangGuard)
	for {
		out, _ := c.command("sinfo", "-h", "-o", "%T").Output()
		if strings.Contains(string(out), "idle") {
			break
		}
		if time.Now().After(deadline) {
			logs, _ := os.ReadFile(filepath.Join(d, "log", "slurmctld.log"))
			t.Fatalf("the cluster is not up after %v (sinfo: %q)\n%s", e2e.HangGuard, out, logs)
		}
		time.Sleep(200 * time.Millisecond)
	}
	t.Logf("cluster up in %v", time.Since(start).Round(time.Millisecond))
	return c
}

func numCPU() int {
	out, err := exec.Command("nproc").Output()
	if err != nil {
		return 1
	}
	n, _ := strconv.Atoi(strings.TrimSpace(string(out)))
	return n
}

// freePorts returns n TCP ports free a moment ago.
func freePorts(t *testing.T, n int) []int {
	t.Helper()
	var ports []int
	for range n {
		l, err := net.Listen("tcp", ":0")
		if err != nil {
			t.Fatal(err)
		}
		defer l.Close()
		ports = append(ports, l.Addr().(*net.TCPAddr).Port)
	}
	return ports
}

// command runs a program against the cluster.
func (c *cluster) command(name string, args ...string) *exec.Cmd {
	cmd := exec.Command(name, args...)
	cmd.Env = append(os.Environ(), "SLURM_CONF="+c.conf)
	return cmd
}

// TestSurveySlurm runs a survey as a 4-task job array on a real
// single-node Slurm cluster with `survey slurm --submit --wait`, and checks
// that the merged JSON is the single-machine JSON byte for byte, and that
// the shard already done before the submission computed nothing.
func TestSurveySlurm(t *testing.T) {
	needSlurm(t)
	if testing.Short() {
		t.Skip("starts a Slurm cluster")
	}
	bin := e2e.Binary(t)
	c := startCluster(t)
	// Paths with a blank and a quote: every path in the scripts and on
	// sbatch's command line must be quoted (issue 21).
	work := filepath.Join(t.TempDir(), "it's a survey")
	if err := os.Mkdir(work, 0o755); err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(work, "octal two.yaml")
	if err := os.WriteFile(file, []byte("title: Octal games with two digits\nsurvey:\n  octal: {digits: 2, upto: 500}\nshow: [period, values]\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	nb := func(args ...string) string {
		t.Helper()
		cmd := c.command(bin, args...)
		var out, errb bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &errb
		if err := cmd.Run(); err != nil {
			t.Fatalf("nimbook %v: %v\n%s%s", args, err, out.String(), errb.String())
		}
		shown := out.String()
		if len(shown) > 2000 {
			shown = shown[:200] + "…\n"
		}
		t.Logf("nimbook %s\n%s%s", strings.Join(args, " "), shown, errb.String())
		return out.String()
	}
	single := nb("survey", file, "--db", filepath.Join(work, "single.db"), "--format", "json", "--quiet")

	db := filepath.Join(work, "slurm $x.db")
	// Shard 0 is done beforehand: resubmitting a partly done survey
	// computes only what is missing.
	nb("survey", file, "--db", db, "--shard", "0/4", "--quiet")
	script := nb("survey", "slurm", file, "--shards", "4", "--db", db)
	if !strings.Contains(script, "--array=0-3") || !strings.Contains(script, `--dependency=afterok:"$array"`) {
		t.Errorf("script:\n%s", script)
	}
	start := time.Now()
	out := nb("survey", "slurm", file, "--shards", "4", "--db", db, "--submit", "--wait", "--", "--time=10")
	t.Logf("submitted and merged in %v", time.Since(start).Round(time.Millisecond))
	if !strings.Contains(out, "63 of 63 variants") {
		t.Errorf("--wait printed %q", out)
	}
	merged := nb("survey", file, "--db", db, "--format", "json", "--quiet")
	if merged != single {
		t.Errorf("the merged JSON differs from the single-machine JSON")
	}
	for i := 0; i < 4; i++ {
		log, err := os.ReadFile(filepath.Join(db+".shards", strconv.Itoa(i)+".log"))
		if err != nil {
			t.Fatal(err)
		}
		want := []string{"computed 0 variants", "computed 16 variants", "computed 16 variants", "computed 15 variants"}[i]
		if !strings.Contains(string(log), want) {
			t.Errorf("shard %d log does not say %q:\n%s", i, want, log)
		}
	}

	// A failing task: the merge never runs and --wait exits 1.
	bad := filepath.Join(work, "bad.db")
	cmd := c.command(bin, "survey", "slurm", file, "--shards", "2", "--db", bad, "--submit", "--wait", "--binary", "/bin/false")
	outb, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	if !errors.As(err, &ee) || ee.ExitCode() != 1 || !strings.Contains(string(outb), "task 0 FAILED") {
		t.Errorf("a failing task: %v\n%s", err, outb)
	}
	t.Logf("failing tasks:\n%s", outb)
}
