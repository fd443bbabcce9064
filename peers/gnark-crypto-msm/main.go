// Command gnark-crypto-msm is zkbench's gnark-crypto MSM peer: BN254 G1 and G2
// multi-scalar multiplication (gnark-crypto's MultiExp, Pippenger with batched
// affine additions) of 2^k random points, per thread count, printed as zkbench
// result records, one JSON object per line (see docs/external-runners.md), with
// the case fields of the `primitives` suite's msm cases:
// kind "msm", system "gnark-crypto", hash "bn254-g1"/"bn254-g2", size, threads.
//
//	go -C peers/gnark-crypto-msm run . --threads 1,2 --sizes 2^10,2^16
//
// ZKBENCH_PROFILE (JSON) sets the sampling (warmup, min_samples, max_samples,
// target_seconds) and caps the sizes (max_log_size by group, "msm" or "all").
package main

import (
	"encoding/json"
	"flag"
	"fmt"
	"math/big"
	"math/rand"
	"os"
	"runtime"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
)

type profile struct {
	Warmup        int            `json:"warmup"`
	MinSamples    int            `json:"min_samples"`
	MaxSamples    int            `json:"max_samples"`
	TargetSeconds float64        `json:"target_seconds"`
	MaxLogSize    map[string]int `json:"max_log_size"`
}

type caseJSON struct {
	Kind    string `json:"kind"`
	System  string `json:"system"`
	Hash    string `json:"hash"`
	Threads int    `json:"threads"`
	Size    uint64 `json:"size"`
}

type record struct {
	Case    caseJSON           `json:"case"`
	Phase   string             `json:"phase"`
	Status  string             `json:"status"`
	Error   string             `json:"error,omitempty"`
	Samples []float64          `json:"samples_s"`
	Threads int                `json:"threads"`
	Metrics map[string]float64 `json:"metrics"`
	CPU     []float64          `json:"cpu_s,omitempty"`
}

func parseSize(s string) (uint64, error) {
	s = strings.TrimSpace(s)
	if k, ok := strings.CutPrefix(s, "2^"); ok {
		e, err := strconv.Atoi(k)
		if err != nil || e < 0 || e > 40 {
			return 0, fmt.Errorf("bad size %q", s)
		}
		return 1 << e, nil
	}
	return strconv.ParseUint(s, 10, 64)
}

func median(v []float64) float64 {
	w := append([]float64(nil), v...)
	for i := range w {
		for j := i + 1; j < len(w); j++ {
			if w[j] < w[i] {
				w[i], w[j] = w[j], w[i]
			}
		}
	}
	n := len(w)
	if n%2 == 1 {
		return w[n/2]
	}
	return (w[n/2-1] + w[n/2]) / 2
}

// sample runs f warmup times, then until the profile is satisfied.
// cpuSeconds is the user + system CPU time of this process (all threads).
func cpuSeconds() float64 {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e9
}

// sample runs f as the profile says and returns the wall and CPU seconds of
// every timed run.
func sample(p profile, f func()) (wall, cpu []float64) {
	for i := 0; i < p.Warmup; i++ {
		f()
	}
	spent := 0.0
	for len(wall) < p.MinSamples || (len(wall) < p.MaxSamples && spent < p.TargetSeconds) {
		c := cpuSeconds()
		t := time.Now()
		f()
		s := time.Since(t).Seconds()
		cpu = append(cpu, cpuSeconds()-c)
		spent += s
		wall = append(wall, s)
	}
	return wall, cpu
}

// jacobian is a Jacobian point type J (pointer P) whose affine type is A:
// what walk and multiExp need of bn254's G1 and G2.
type jacobian[J, A any] interface {
	*J
	FromAffine(*A) *J
	ScalarMultiplication(*J, *big.Int) *J
	AddAssign(*J) *J
	MultiExp([]A, []fr.Element, ecc.MultiExpConfig) (*J, error)
}

// walk calls emit with the n points start, start+step, … of the group of
// the generator g (start and step random multiples of g).
func walk[J, A any, P jacobian[J, A]](g *A, n int, rng *rand.Rand, emit func(i int, p *J)) {
	var start, step, gj J
	P(&gj).FromAffine(g)
	P(&start).ScalarMultiplication(&gj, big.NewInt(rng.Int63()))
	P(&step).ScalarMultiplication(&gj, big.NewInt(rng.Int63()))
	cur := start
	for i := 0; i < n; i++ {
		emit(i, &cur)
		P(&cur).AddAssign(&step)
	}
}

func walkG1(n int, rng *rand.Rand) []bn254.G1Affine {
	_, _, g, _ := bn254.Generators()
	jac := make([]bn254.G1Jac, n)
	walk(&g, n, rng, func(i int, p *bn254.G1Jac) { jac[i] = *p })
	return bn254.BatchJacobianToAffineG1(jac)
}

func walkG2(n int, rng *rand.Rand) []bn254.G2Affine {
	_, _, _, g := bn254.Generators()
	out := make([]bn254.G2Affine, n)
	walk(&g, n, rng, func(i int, p *bn254.G2Jac) { out[i].FromJacobian(p) })
	return out
}

// multiExp returns the MSM of pts and sc in the Jacobian type J on t tasks.
func multiExp[J, A any, P jacobian[J, A]](pts []A, sc []fr.Element) func(t int) {
	return func(t int) {
		var r J
		if _, err := P(&r).MultiExp(pts, sc, ecc.MultiExpConfig{NbTasks: t}); err != nil {
			panic(err)
		}
	}
}

func scalars(n int) []fr.Element {
	v := make([]fr.Element, n)
	for i := range v {
		if _, err := v[i].SetRandom(); err != nil {
			panic(err)
		}
	}
	return v
}

func main() {
	// zkbench runs an external runner once per thread count with ZKBENCH_THREADS set (and the
	// process pinned to that many cores): that count is then the default
	defaultThreads := "1,2"
	if t := os.Getenv("ZKBENCH_THREADS"); t != "" {
		defaultThreads = t
	}
	threadsFlag := flag.String("threads", defaultThreads, "comma-separated thread counts (default: $ZKBENCH_THREADS, else 1,2)")
	sizesFlag := flag.String("sizes", "2^10,2^12,2^14,2^16", "comma-separated sizes (2^K or decimal)")
	groupsFlag := flag.String("groups", "bn254-g1,bn254-g2", "bn254-g1 and/or bn254-g2")
	flag.Parse()

	p := profile{Warmup: 1, MinSamples: 3, MaxSamples: 10, TargetSeconds: 1}
	if s := os.Getenv("ZKBENCH_PROFILE"); s != "" {
		if err := json.Unmarshal([]byte(s), &p); err != nil {
			fmt.Fprintln(os.Stderr, "bad ZKBENCH_PROFILE:", err)
			os.Exit(2)
		}
	}
	var threads []int
	for _, t := range strings.Split(*threadsFlag, ",") {
		n, err := strconv.Atoi(strings.TrimSpace(t))
		if err != nil || n < 1 {
			fmt.Fprintln(os.Stderr, "bad thread count", t)
			os.Exit(2)
		}
		threads = append(threads, n)
	}
	var sizes []uint64
	for _, s := range strings.Split(*sizesFlag, ",") {
		n, err := parseSize(s)
		if err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(2)
		}
		sizes = append(sizes, n)
	}
	capFor := func(group string) int {
		for _, k := range []string{group, "msm", "all"} {
			if v, ok := p.MaxLogSize[k]; ok {
				return v
			}
		}
		return 63
	}
	enc := json.NewEncoder(os.Stdout)
	rng := rand.New(rand.NewSource(1))
	for _, group := range strings.Split(*groupsFlag, ",") {
		for _, n := range sizes {
			if n > 1<<uint(capFor(group)) {
				continue
			}
			var run func(t int)
			switch group {
			case "bn254-g1":
				run = multiExp[bn254.G1Jac](walkG1(int(n), rng), scalars(int(n)))
			case "bn254-g2":
				run = multiExp[bn254.G2Jac](walkG2(int(n), rng), scalars(int(n)))
			default:
				fmt.Fprintln(os.Stderr, "unknown group", group)
				os.Exit(2)
			}
			for _, t := range threads {
				runtime.GOMAXPROCS(t)
				s, cpu := sample(p, func() { run(t) })
				m := median(s)
				_ = enc.Encode(record{
					Case:    caseJSON{Kind: "msm", System: "gnark-crypto", Hash: group, Threads: t, Size: n},
					Phase:   "msm",
					Status:  "ok",
					Samples: s,
					CPU:     cpu,
					Threads: t,
					Metrics: map[string]float64{
						"items":            float64(n),
						"ns_per_point":     m * 1e9 / float64(n),
						"points_per_s":     float64(n) / m,
						"cpu_ns_per_point": median(cpu) * 1e9 / float64(n),
					},
				})
			}
			runtime.GOMAXPROCS(runtime.NumCPU())
		}
	}
}
