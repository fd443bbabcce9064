// Command gnark is zkbench's gnark peer: a binary Merkle membership proof with
// gnark's Poseidon2 (width 2 compression, gnark's default BN254 parameters) on
// Groth16, measured by phase and printed as zkbench result records, one JSON
// object per line (see docs/external-runners.md).
//
//	go run ./peers/gnark --depth 32                  (Groth16: case.system gnark-groth16)
//	go run ./peers/gnark --depth 32 --system plonk   (PLONK with an unsafe test KZG SRS: gnark-plonk)
//	go run ./peers/gnark --depth 32 --evm-out DIR   (gnark's Solidity verifier and a proof, for `zkbench run evm`)
//
// Both systems also record phase "verify-tampered": the proof checked against the root + 1,
// status ok with metrics.rejected = 1 when gnark rejects it (an error record if it accepts).
//
// The circuit: public root; private leaf and 32 siblings; per level the two
// children are ordered by the position bit (api.Select) and compressed with
// Poseidon2 Compress(left, right) = perm(left, right)[1] + right.
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"time"

	"github.com/consensys/gnark-crypto/ecc"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	fposeidon2 "github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
	"github.com/consensys/gnark/backend/groth16"
	groth16bn254 "github.com/consensys/gnark/backend/groth16/bn254"
	"github.com/consensys/gnark/backend/plonk"
	"github.com/consensys/gnark/backend/witness"
	"github.com/consensys/gnark/constraint"
	"github.com/consensys/gnark/frontend"
	"github.com/consensys/gnark/frontend/cs/r1cs"
	"github.com/consensys/gnark/frontend/cs/scs"
	"github.com/consensys/gnark/logger"
	"github.com/consensys/gnark/std/permutation/poseidon2"
	"github.com/consensys/gnark/test/unsafekzg"
)

// membership is the circuit: Root is public, the rest private.
type membership struct {
	Root     frontend.Variable `gnark:",public"`
	Leaf     frontend.Variable
	Siblings []frontend.Variable
	Bits     []frontend.Variable
}

func (c *membership) Define(api frontend.API) error {
	p, err := poseidon2.NewPoseidon2(api)
	if err != nil {
		return err
	}
	cur := c.Leaf
	for i := range c.Siblings {
		api.AssertIsBoolean(c.Bits[i])
		l := api.Select(c.Bits[i], c.Siblings[i], cur)
		r := api.Select(c.Bits[i], cur, c.Siblings[i])
		cur = p.Compress(l, r)
	}
	api.AssertIsEqual(cur, c.Root)
	return nil
}

type profile struct {
	Warmup        int     `json:"warmup"`
	MinSamples    int     `json:"min_samples"`
	MaxSamples    int     `json:"max_samples"`
	TargetSeconds float64 `json:"target_seconds"`
}

type record struct {
	Case    map[string]any     `json:"case"`
	Phase   string             `json:"phase"`
	Status  string             `json:"status"`
	Error   string             `json:"error,omitempty"`
	Samples []float64          `json:"samples_s"`
	Threads int                `json:"threads"`
	Metrics map[string]float64 `json:"metrics"`
	Test    bool               `json:"test_setup"`
}

func main() {
	depth := flag.Int("depth", 32, "tree depth (binary)")
	evmOut := flag.String("evm-out", "", "instead of benchmarking: prove once and write gnark's Solidity verifier (Verifier.sol), the proof in its Solidity layout (proof.hex) and the public inputs (public.json) to this directory, for zkbench's evm suite")
	system := flag.String("system", "groth16", "proof system: groth16 or plonk (PLONK over KZG with gnark's unsafe test SRS)")
	flag.Parse()
	if *system != "groth16" && *system != "plonk" {
		fmt.Fprintln(os.Stderr, "--system must be groth16 or plonk")
		os.Exit(2)
	}
	if *system == "plonk" && *evmOut != "" {
		fmt.Fprintln(os.Stderr, "--evm-out exports the Groth16 verifier only")
		os.Exit(2)
	}
	logger.Disable()
	prof := profile{Warmup: 1, MinSamples: 3, MaxSamples: 10, TargetSeconds: 2}
	if s := os.Getenv("ZKBENCH_PROFILE"); s != "" {
		if err := json.Unmarshal([]byte(s), &prof); err != nil {
			fmt.Fprintln(os.Stderr, "bad ZKBENCH_PROFILE:", err)
			os.Exit(2)
		}
	}
	threads := runtime.GOMAXPROCS(0)
	leaves := uint64(1) << uint(*depth)
	kase := map[string]any{
		// hash: zkbench's name for exactly this hash (gnark-crypto's default
		// Poseidon2, t = 2, R_F = 6, R_P = 50, with gnark's Compress), so that the
		// report lines these records up with zkbench's proofs of the same statement.
		"kind": "proof", "system": "gnark-" + *system, "hash": "poseidon2-gnark", "arity": 2,
		"leaves": leaves, "circuit": "membership", "threads": 0,
	}
	emit := func(phase string, samples []float64, metrics map[string]float64) {
		if *evmOut != "" {
			return // export mode prints no records
		}
		r := record{Case: kase, Phase: phase, Status: "ok", Samples: samples, Threads: threads, Metrics: metrics, Test: true}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
	}
	fail := func(phase string, err error) {
		r := record{Case: kase, Phase: phase, Status: "error", Error: err.Error(), Threads: threads, Metrics: map[string]float64{}}
		b, _ := json.Marshal(r)
		fmt.Println(string(b))
		os.Exit(1)
	}

	// Native witness: random leaf and siblings, root by the same compression.
	perm := fposeidon2.NewPermutation(2, 6, 50)
	rng := rand.New(rand.NewSource(1))
	var leaf fr.Element
	leaf.SetUint64(rng.Uint64())
	cur := leaf
	sibs := make([]frontend.Variable, *depth)
	bits := make([]frontend.Variable, *depth)
	index := rng.Uint64() & (leaves - 1)
	for i := 0; i < *depth; i++ {
		var s fr.Element
		s.SetUint64(rng.Uint64())
		b := (index >> uint(i)) & 1
		var l, r fr.Element
		if b == 1 {
			l, r = s, cur
		} else {
			l, r = cur, s
		}
		lb, rb := l.Bytes(), r.Bytes()
		out, err := perm.Compress(lb[:], rb[:])
		if err != nil {
			fail("witness", err)
		}
		cur.SetBytes(out)
		sibs[i] = s
		bits[i] = b
	}
	circuit := membership{Siblings: make([]frontend.Variable, *depth), Bits: make([]frontend.Variable, *depth)}

	if *system == "plonk" {
		runPlonk(circuit, membership{Root: cur, Leaf: leaf, Siblings: sibs, Bits: bits}, cur, prof, emit, fail)
		return
	}

	t0 := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, &circuit)
	if err != nil {
		fail("setup", err)
	}
	pk, vk, err := groth16.Setup(ccs)
	if err != nil {
		fail("setup", err)
	}
	setup := time.Since(t0).Seconds()
	metrics := map[string]float64{"constraints": float64(ccs.GetNbConstraints())}
	emit("setup", []float64{setup}, metrics)

	assignment := membership{Root: cur, Leaf: leaf, Siblings: sibs, Bits: bits}
	var wit, pub witness.Witness
	witnessSamples := sample(prof, func() error {
		w, err := frontend.NewWitness(&assignment, ecc.BN254.ScalarField())
		if err != nil {
			return err
		}
		p, err := w.Public()
		wit, pub = w, p
		return err
	}, func(err error) { fail("witness", err) })
	emit("witness", witnessSamples, metrics)

	if *evmOut != "" {
		if err := exportEVM(*evmOut, ccs, pk, vk, wit, cur); err != nil {
			fmt.Fprintln(os.Stderr, "evm export:", err)
			os.Exit(1)
		}
		return
	}

	var proof groth16.Proof
	t1 := time.Now()
	proof, err = groth16.Prove(ccs, pk, wit)
	if err != nil {
		fail("prove_cold", err)
	}
	emit("prove_cold", []float64{time.Since(t1).Seconds()}, metrics)
	proveSamples := sample(prof, func() error {
		var err error
		proof, err = groth16.Prove(ccs, pk, wit)
		return err
	}, func(err error) { fail("prove", err) })
	var buf bytes.Buffer
	if _, err := proof.WriteTo(&buf); err != nil {
		fail("prove", err)
	}
	pm := map[string]float64{"constraints": metrics["constraints"], "proof_bytes": float64(buf.Len())}
	emit("prove", proveSamples, pm)

	verifySamples := sample(prof, func() error { return groth16.Verify(proof, vk, pub) }, func(err error) { fail("verify", err) })
	emit("verify", verifySamples, pm)

	// A changed public input (root + 1) must be rejected: recorded.
	tampered(assignment, cur, func(bw witness.Witness) error { return groth16.Verify(proof, vk, bw) }, emit, fail)
}

// tampered verifies the proof against root + 1 and records the verdict (phase verify-tampered).
func tampered(assignment membership, root fr.Element, verify func(witness.Witness) error,
	emit func(string, []float64, map[string]float64), fail func(string, error)) {
	bad := assignment
	var one, wrong fr.Element
	one.SetOne()
	wrong.Add(&root, &one)
	bad.Root = wrong
	bw, err := frontend.NewWitness(&bad, ecc.BN254.ScalarField(), frontend.PublicOnly())
	if err != nil {
		fail("verify-tampered", err)
	}
	t := time.Now()
	if verify(bw) == nil {
		fail("verify-tampered", fmt.Errorf("proof verified against a changed public input (root + 1)"))
	}
	emit("verify-tampered", []float64{time.Since(t).Seconds()}, map[string]float64{"rejected": 1})
}

// runPlonk measures the same statement with gnark's PLONK (KZG, BN254). The SRS comes from
// gnark's test/unsafekzg: its toxic value is known, for tests and benchmarks only.
func runPlonk(circuit, assignment membership, root fr.Element, prof profile,
	emit func(string, []float64, map[string]float64), fail func(string, error)) {
	t0 := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), scs.NewBuilder, &circuit)
	if err != nil {
		fail("setup", err)
	}
	srs, srsLagrange, err := unsafekzg.NewSRS(ccs)
	if err != nil {
		fail("setup", err)
	}
	pk, vk, err := plonk.Setup(ccs, srs, srsLagrange)
	if err != nil {
		fail("setup", err)
	}
	metrics := map[string]float64{"constraints": float64(ccs.GetNbConstraints())}
	emit("setup", []float64{time.Since(t0).Seconds()}, metrics)

	var wit, pub witness.Witness
	witnessSamples := sample(prof, func() error {
		w, err := frontend.NewWitness(&assignment, ecc.BN254.ScalarField())
		if err != nil {
			return err
		}
		p, err := w.Public()
		wit, pub = w, p
		return err
	}, func(err error) { fail("witness", err) })
	emit("witness", witnessSamples, metrics)

	t1 := time.Now()
	proof, err := plonk.Prove(ccs, pk, wit)
	if err != nil {
		fail("prove_cold", err)
	}
	emit("prove_cold", []float64{time.Since(t1).Seconds()}, metrics)
	proveSamples := sample(prof, func() error {
		var err error
		proof, err = plonk.Prove(ccs, pk, wit)
		return err
	}, func(err error) { fail("prove", err) })
	var buf bytes.Buffer
	if _, err := proof.WriteTo(&buf); err != nil {
		fail("prove", err)
	}
	pm := map[string]float64{"constraints": metrics["constraints"], "proof_bytes": float64(buf.Len())}
	emit("prove", proveSamples, pm)
	verifySamples := sample(prof, func() error { return plonk.Verify(proof, vk, pub) }, func(err error) { fail("verify", err) })
	emit("verify", verifySamples, pm)
	tampered(assignment, root, func(bw witness.Witness) error { return plonk.Verify(proof, vk, bw) }, emit, fail)
}

// exportEVM proves once and writes gnark's Solidity verifier for vk, the proof as its
// verifyProof(bytes proof, uint256[1] input) expects it (MarshalSolidity: A, B, C in EIP-197
// order), and the public input, into dir.
func exportEVM(dir string, ccs constraint.ConstraintSystem, pk groth16.ProvingKey, vk groth16.VerifyingKey, wit witness.Witness, root fr.Element) error {
	proof, err := groth16.Prove(ccs, pk, wit)
	if err != nil {
		return err
	}
	pub, err := wit.Public()
	if err != nil {
		return err
	}
	if err := groth16.Verify(proof, vk, pub); err != nil {
		return err
	}
	p, ok := proof.(*groth16bn254.Proof)
	if !ok {
		return fmt.Errorf("not a BN254 proof")
	}
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	var sol bytes.Buffer
	if err := vk.ExportSolidity(&sol); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "Verifier.sol"), sol.Bytes(), 0o644); err != nil {
		return err
	}
	if err := os.WriteFile(filepath.Join(dir, "proof.hex"), []byte(hex.EncodeToString(p.MarshalSolidity())), 0o644); err != nil {
		return err
	}
	public, _ := json.Marshal([]string{root.String()})
	return os.WriteFile(filepath.Join(dir, "public.json"), public, 0o644)
}

// sample runs f warmup times, then measures it until the profile is satisfied.
func sample(p profile, f func() error, fail func(error)) []float64 {
	for i := 0; i < p.Warmup; i++ {
		if err := f(); err != nil {
			fail(err)
		}
	}
	var out []float64
	spent := 0.0
	for len(out) < p.MinSamples || (len(out) < p.MaxSamples && spent < p.TargetSeconds) {
		t := time.Now()
		if err := f(); err != nil {
			fail(err)
		}
		d := time.Since(t).Seconds()
		spent += d
		out = append(out, d)
	}
	return out
}
