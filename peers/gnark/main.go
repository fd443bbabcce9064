// Command gnark is zkbench's gnark peer: zkbench's binary Merkle membership and note-spend
// statements with gnark's Poseidon2 (width 2 compression, gnark's default BN254 parameters)
// on Groth16 and PLONK, measured by phase and printed as zkbench result records, one JSON
// object per line (see docs/external-runners.md).
//
//	go run ./peers/gnark --depth 32                  (membership, Groth16: case.system gnark-groth16)
//	go run ./peers/gnark --depth 32 --system plonk   (PLONK with an unsafe test KZG SRS: gnark-plonk)
//	go run ./peers/gnark --depth 32 --circuit spend  (zkbench's note spend, case.circuit spend)
//	go run ./peers/gnark --depth 32 --evm-out DIR   (gnark's Solidity verifier and a proof, for `zkbench run evm`)
//
// Both systems also record phase "verify-tampered": the proof checked against the root + 1,
// status ok with metrics.rejected = 1 when gnark rejects it (an error record if it accepts).
//
// The membership circuit: public root; private leaf and `depth` siblings; per level the two
// children are ordered by the position bit (api.Select) and compressed with Poseidon2
// Compress(left, right) = perm(left, right)[1] + right.
//
// The note-spend circuit (zkbench's crates/statement, with H_2 = Compress, which is how
// zkbench's `poseidon2-gnark` family hashes every pair): private nullifier n, secret s,
// siblings and position bits; public, in this order, root, nullifier_hash, ext_data_hash;
// leaf = H_2(n, s), nullifier_hash = H_2(n, DOMAIN_NULLIFIER) (the integer of the bytes
// "zkbench/nullifier"), s != DOMAIN_NULLIFIER (api.AssertIsDifferent: one inverse), the path
// from leaf to root as in membership, and ext_data_hash * ext_data_hash (one constraint binding
// the third input, as Tornado Cash does). The witness is fixed pseudo-random values, or
// ZKBENCH_GNARK_SPEND_INPUT (JSON {nullifier, secret, ext_data_hash, index, siblings}, the
// field elements as decimal strings); --public-out FILE writes the public inputs the proof
// was verified against (decimal strings, in the circuit's order).
package main

import (
	"bytes"
	"encoding/hex"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"math/big"
	"math/rand"
	"os"
	"path/filepath"
	"runtime"
	"syscall"
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

// domainNullifierTag is zkbench's DOMAIN_NULLIFIER_TAG (crates/statement): DOMAIN_NULLIFIER is
// the big-endian integer of these bytes.
const domainNullifierTag = "zkbench/nullifier"

// domainNullifier is DOMAIN_NULLIFIER as a field element.
func domainNullifier() fr.Element {
	var d fr.Element
	d.SetBigInt(new(big.Int).SetBytes([]byte(domainNullifierTag)))
	return d
}

// membership is the membership circuit: Root is public, the rest private.
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
	api.AssertIsEqual(hashPath(api, p, c.Leaf, c.Siblings, c.Bits), c.Root)
	return nil
}

// spend is zkbench's note-spend circuit: Root, NullifierHash, ExtDataHash are public (gnark
// orders the public inputs as the fields are declared: zkbench's order), the rest private.
type spend struct {
	Root          frontend.Variable `gnark:",public"`
	NullifierHash frontend.Variable `gnark:",public"`
	ExtDataHash   frontend.Variable `gnark:",public"`
	Nullifier     frontend.Variable
	Secret        frontend.Variable
	Siblings      []frontend.Variable
	Bits          []frontend.Variable
}

func (c *spend) Define(api frontend.API) error {
	p, err := poseidon2.NewPoseidon2(api)
	if err != nil {
		return err
	}
	d := domainNullifier()
	leaf := p.Compress(c.Nullifier, c.Secret)
	api.AssertIsEqual(p.Compress(c.Nullifier, d), c.NullifierHash)
	api.AssertIsDifferent(c.Secret, d)
	api.AssertIsEqual(hashPath(api, p, leaf, c.Siblings, c.Bits), c.Root)
	api.Mul(c.ExtDataHash, c.ExtDataHash) // binds ext_data_hash to the proof
	return nil
}

// hashPath hashes cur up the path: per level the position bit (boolean-constrained) orders
// (cur, sibling) and the two are compressed.
func hashPath(api frontend.API, p *poseidon2.Permutation, cur frontend.Variable, siblings, bits []frontend.Variable) frontend.Variable {
	for i := range siblings {
		api.AssertIsBoolean(bits[i])
		l := api.Select(bits[i], siblings[i], cur)
		r := api.Select(bits[i], cur, siblings[i])
		cur = p.Compress(l, r)
	}
	return cur
}

// statement is one instance to prove: the circuit's shape (for compiling), the full
// assignment, the same with the root changed to root + 1 (verify-tampered), and the public
// inputs in the circuit's order.
type statement struct {
	name       string
	shape      frontend.Circuit
	assignment frontend.Circuit
	tampered   frontend.Circuit
	public     []fr.Element
}

// compress is gnark-crypto's native Poseidon2 Compress(l, r) = perm(l, r)[1] + r.
func compress(perm *fposeidon2.Permutation, l, r fr.Element) (fr.Element, error) {
	lb, rb := l.Bytes(), r.Bytes()
	out, err := perm.Compress(lb[:], rb[:])
	var h fr.Element
	if err != nil {
		return h, err
	}
	h.SetBytes(out)
	return h, nil
}

// nativePath computes the root above cur for the leaf index and siblings, and the position
// bits as circuit values.
func nativePath(perm *fposeidon2.Permutation, cur fr.Element, index uint64, siblings []fr.Element) (fr.Element, []frontend.Variable, error) {
	bits := make([]frontend.Variable, len(siblings))
	for i, s := range siblings {
		b := (index >> uint(i)) & 1
		l, r := cur, s
		if b == 1 {
			l, r = s, cur
		}
		var err error
		if cur, err = compress(perm, l, r); err != nil {
			return cur, nil, err
		}
		bits[i] = b
	}
	return cur, bits, nil
}

func variables(xs []fr.Element) []frontend.Variable {
	out := make([]frontend.Variable, len(xs))
	for i := range xs {
		out[i] = xs[i]
	}
	return out
}

func plusOne(x fr.Element) fr.Element {
	var one fr.Element
	one.SetOne()
	x.Add(&x, &one)
	return x
}

// membershipStatement: a pseudo-random leaf and path (seeded, so every run proves the same).
func membershipStatement(depth int, perm *fposeidon2.Permutation) (statement, error) {
	rng := rand.New(rand.NewSource(1))
	var leaf fr.Element
	leaf.SetUint64(rng.Uint64())
	index := rng.Uint64() & (uint64(1)<<uint(depth) - 1)
	sibs := make([]fr.Element, depth)
	for i := range sibs {
		sibs[i].SetUint64(rng.Uint64())
	}
	root, bits, err := nativePath(perm, leaf, index, sibs)
	if err != nil {
		return statement{}, err
	}
	a := membership{Root: root, Leaf: leaf, Siblings: variables(sibs), Bits: bits}
	t := a
	t.Root = plusOne(root)
	return statement{
		name:       "membership",
		shape:      &membership{Siblings: make([]frontend.Variable, depth), Bits: make([]frontend.Variable, depth)},
		assignment: &a, tampered: &t, public: []fr.Element{root},
	}, nil
}

// spendInput is ZKBENCH_GNARK_SPEND_INPUT: the spend's private values and ext_data_hash.
type spendInput struct {
	Nullifier   string   `json:"nullifier"`
	Secret      string   `json:"secret"`
	ExtDataHash string   `json:"ext_data_hash"`
	Index       uint64   `json:"index"`
	Siblings    []string `json:"siblings"`
}

// parseFr reads a canonical field element (decimal, or 0x-prefixed hex).
func parseFr(what, s string) (fr.Element, error) {
	var x fr.Element
	v, ok := new(big.Int).SetString(s, 0)
	if !ok || v.Sign() < 0 || v.Cmp(fr.Modulus()) >= 0 {
		return x, fmt.Errorf("%s: %q is not a field element (an integer in [0, r))", what, s)
	}
	x.SetBigInt(v)
	return x, nil
}

// spendStatement: the witness of ZKBENCH_GNARK_SPEND_INPUT when set, else seeded
// pseudo-random values; root and nullifier_hash computed natively.
func spendStatement(depth int, perm *fposeidon2.Permutation) (statement, error) {
	var n, s, ext fr.Element
	var index uint64
	sibs := make([]fr.Element, depth)
	if js := os.Getenv("ZKBENCH_GNARK_SPEND_INPUT"); js != "" {
		var in spendInput
		if err := json.Unmarshal([]byte(js), &in); err != nil {
			return statement{}, fmt.Errorf("ZKBENCH_GNARK_SPEND_INPUT: %w", err)
		}
		if len(in.Siblings) != depth {
			return statement{}, fmt.Errorf("ZKBENCH_GNARK_SPEND_INPUT: %d siblings for depth %d", len(in.Siblings), depth)
		}
		if depth < 64 && in.Index>>uint(depth) != 0 {
			return statement{}, fmt.Errorf("ZKBENCH_GNARK_SPEND_INPUT: index %d out of range for depth %d", in.Index, depth)
		}
		var err error
		if n, err = parseFr("nullifier", in.Nullifier); err != nil {
			return statement{}, err
		}
		if s, err = parseFr("secret", in.Secret); err != nil {
			return statement{}, err
		}
		if ext, err = parseFr("ext_data_hash", in.ExtDataHash); err != nil {
			return statement{}, err
		}
		for i, x := range in.Siblings {
			if sibs[i], err = parseFr(fmt.Sprintf("siblings[%d]", i), x); err != nil {
				return statement{}, err
			}
		}
		index = in.Index
	} else {
		rng := rand.New(rand.NewSource(2))
		random := func() fr.Element {
			var b [32]byte
			rng.Read(b[:])
			var x fr.Element
			x.SetBytes(b[:]) // reduced modulo r
			return x
		}
		n, s, ext = random(), random(), random()
		index = rng.Uint64() & (uint64(1)<<uint(depth) - 1)
		for i := range sibs {
			sibs[i] = random()
		}
	}
	d := domainNullifier()
	if s.Equal(&d) {
		return statement{}, fmt.Errorf("the secret must differ from DOMAIN_NULLIFIER")
	}
	leaf, err := compress(perm, n, s)
	if err != nil {
		return statement{}, err
	}
	nh, err := compress(perm, n, d)
	if err != nil {
		return statement{}, err
	}
	root, bits, err := nativePath(perm, leaf, index, sibs)
	if err != nil {
		return statement{}, err
	}
	a := spend{Root: root, NullifierHash: nh, ExtDataHash: ext, Nullifier: n, Secret: s, Siblings: variables(sibs), Bits: bits}
	t := a
	t.Root = plusOne(root)
	return statement{
		name:       "spend",
		shape:      &spend{Siblings: make([]frontend.Variable, depth), Bits: make([]frontend.Variable, depth)},
		assignment: &a, tampered: &t, public: []fr.Element{root, nh, ext},
	}, nil
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
	CPU     []float64          `json:"cpu_s,omitempty"`
	Threads int                `json:"threads"`
	Metrics map[string]float64 `json:"metrics"`
	Test    bool               `json:"test_setup"`
}

// recorder prints the records of one case.
type recorder struct {
	kase    map[string]any
	threads int
	silent  bool // export mode prints no records
}

func (r recorder) emit(phase string, samples []float64, metrics map[string]float64) {
	r.emitCPU(phase, samples, nil, metrics)
}

// emitCPU is emit with the CPU seconds (all threads) of every sample.
func (r recorder) emitCPU(phase string, samples, cpu []float64, metrics map[string]float64) {
	if r.silent {
		return
	}
	b, _ := json.Marshal(record{Case: r.kase, Phase: phase, Status: "ok", Samples: samples, CPU: cpu, Threads: r.threads, Metrics: metrics, Test: true})
	fmt.Println(string(b))
}

// fail records phase as failed with err and exits.
func (r recorder) fail(phase string, err error) {
	b, _ := json.Marshal(record{Case: r.kase, Phase: phase, Status: "error", Error: err.Error(), Threads: r.threads, Metrics: map[string]float64{}})
	fmt.Println(string(b))
	os.Exit(1)
}

func main() {
	depth := flag.Int("depth", 32, "tree depth (binary, 1..63)")
	circuitName := flag.String("circuit", "membership", "statement: membership or spend (zkbench's note spend)")
	evmOut := flag.String("evm-out", "", "instead of benchmarking: prove once and write gnark's Solidity verifier (Verifier.sol), the proof in its Solidity layout (proof.hex) and the public inputs (public.json) to this directory, for zkbench's evm suite (membership, Groth16)")
	system := flag.String("system", "groth16", "proof system: groth16 or plonk (PLONK over KZG with gnark's unsafe test SRS)")
	publicOut := flag.String("public-out", "", "write the public inputs the proof was verified against (JSON array of decimal strings) to this file")
	flag.Parse()
	usage := func(msg string) {
		fmt.Fprintln(os.Stderr, msg)
		os.Exit(2)
	}
	if *system != "groth16" && *system != "plonk" {
		usage("--system must be groth16 or plonk")
	}
	if *circuitName != "membership" && *circuitName != "spend" {
		usage("--circuit must be membership or spend")
	}
	if *depth < 1 || *depth > 63 {
		usage("--depth must be in 1..63")
	}
	if *evmOut != "" && (*system == "plonk" || *circuitName != "membership") {
		usage("--evm-out exports the Groth16 verifier of the membership circuit only")
	}
	logger.Disable()
	prof := profile{Warmup: 1, MinSamples: 3, MaxSamples: 10, TargetSeconds: 2}
	if s := os.Getenv("ZKBENCH_PROFILE"); s != "" {
		if err := json.Unmarshal([]byte(s), &prof); err != nil {
			usage("bad ZKBENCH_PROFILE: " + err.Error())
		}
	}
	rec := recorder{
		// hash: zkbench's name for exactly this hash (gnark-crypto's default
		// Poseidon2, t = 2, R_F = 6, R_P = 50, with gnark's Compress), so that the
		// report lines these records up with zkbench's proofs of the same statement.
		kase: map[string]any{
			"kind": "proof", "system": "gnark-" + *system, "hash": "poseidon2-gnark", "arity": 2,
			"leaves": uint64(1) << uint(*depth), "circuit": *circuitName, "threads": 0,
		},
		threads: runtime.GOMAXPROCS(0),
		silent:  *evmOut != "",
	}

	perm := fposeidon2.NewPermutation(2, 6, 50)
	var st statement
	var err error
	if *circuitName == "spend" {
		st, err = spendStatement(*depth, perm)
	} else {
		st, err = membershipStatement(*depth, perm)
	}
	if err != nil {
		rec.fail("witness", err)
	}
	b := backend{rec: rec, prof: prof, st: st}
	if *system == "plonk" {
		b.runPlonk()
	} else {
		b.runGroth16(*evmOut)
	}
	if *publicOut != "" {
		if err := writePublic(*publicOut, b.pub); err != nil {
			rec.fail("verify", fmt.Errorf("--public-out: %w", err))
		}
	}
}

// writePublic writes the public witness's values as a JSON array of decimal strings.
func writePublic(path string, pub witness.Witness) error {
	v, ok := pub.Vector().(fr.Vector)
	if !ok {
		return fmt.Errorf("not a BN254 witness")
	}
	out := make([]string, len(v))
	for i := range v {
		out[i] = v[i].String()
	}
	b, _ := json.Marshal(out)
	return os.WriteFile(path, b, 0o644)
}

// backend measures one statement on one proof system.
type backend struct {
	rec  recorder
	prof profile
	st   statement
	wit  witness.Witness
	pub  witness.Witness // the public inputs the proof was verified against
}

// witness measures the witness phase (gnark's assignment to a full and public witness).
func (b *backend) witness(metrics map[string]float64) {
	samples, cpu := sample(b.prof, func() error {
		w, err := frontend.NewWitness(b.st.assignment, ecc.BN254.ScalarField())
		if err != nil {
			return err
		}
		p, err := w.Public()
		b.wit, b.pub = w, p
		return err
	}, func(err error) { b.rec.fail("witness", err) })
	b.rec.emitCPU("witness", samples, cpu, metrics)
}

// measure records prove_cold, prove (with proof_bytes), verify and verify-tampered; prove
// keeps the proof it makes, size gives its serialized length, verify checks it against a
// public witness.
func (b *backend) measure(metrics map[string]float64, prove func() error, size func() (int, error), verify func(witness.Witness) error) {
	t := time.Now()
	if err := prove(); err != nil {
		b.rec.fail("prove_cold", err)
	}
	b.rec.emit("prove_cold", []float64{time.Since(t).Seconds()}, metrics)
	proveSamples, proveCPU := sample(b.prof, prove, func(err error) { b.rec.fail("prove", err) })
	n, err := size()
	if err != nil {
		b.rec.fail("prove", err)
	}
	pm := map[string]float64{"constraints": metrics["constraints"], "proof_bytes": float64(n)}
	b.rec.emitCPU("prove", proveSamples, proveCPU, pm)
	verifySamples, verifyCPU := sample(b.prof, func() error { return verify(b.pub) }, func(err error) { b.rec.fail("verify", err) })
	b.rec.emitCPU("verify", verifySamples, verifyCPU, pm)

	// A changed public input (root + 1) must be rejected: recorded.
	bw, err := frontend.NewWitness(b.st.tampered, ecc.BN254.ScalarField(), frontend.PublicOnly())
	if err != nil {
		b.rec.fail("verify-tampered", err)
	}
	t = time.Now()
	if verify(bw) == nil {
		b.rec.fail("verify-tampered", fmt.Errorf("proof verified against a changed public input (root + 1)"))
	}
	b.rec.emit("verify-tampered", []float64{time.Since(t).Seconds()}, map[string]float64{"rejected": 1})
}

// runGroth16 measures the statement with gnark's Groth16 (its own one-party setup); with
// evmOut set it only exports the Solidity verifier and a proof.
func (b *backend) runGroth16(evmOut string) {
	t0 := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), r1cs.NewBuilder, b.st.shape)
	if err != nil {
		b.rec.fail("setup", err)
	}
	pk, vk, err := groth16.Setup(ccs)
	if err != nil {
		b.rec.fail("setup", err)
	}
	metrics := map[string]float64{"constraints": float64(ccs.GetNbConstraints())}
	b.rec.emit("setup", []float64{time.Since(t0).Seconds()}, metrics)
	b.witness(metrics)
	if evmOut != "" {
		if err := exportEVM(evmOut, ccs, pk, vk, b.wit, b.st.public[0]); err != nil {
			fmt.Fprintln(os.Stderr, "evm export:", err)
			os.Exit(1)
		}
		return
	}
	var proof groth16.Proof
	b.measure(metrics,
		func() error { proof, err = groth16.Prove(ccs, pk, b.wit); return err },
		func() (int, error) { return serializedLen(proof) },
		func(pub witness.Witness) error { return groth16.Verify(proof, vk, pub) })
}

// runPlonk measures the statement with gnark's PLONK (KZG, BN254). The SRS comes from
// gnark's test/unsafekzg: its toxic value is known, for tests and benchmarks only.
func (b *backend) runPlonk() {
	t0 := time.Now()
	ccs, err := frontend.Compile(ecc.BN254.ScalarField(), scs.NewBuilder, b.st.shape)
	if err != nil {
		b.rec.fail("setup", err)
	}
	srs, srsLagrange, err := unsafekzg.NewSRS(ccs)
	if err != nil {
		b.rec.fail("setup", err)
	}
	pk, vk, err := plonk.Setup(ccs, srs, srsLagrange)
	if err != nil {
		b.rec.fail("setup", err)
	}
	metrics := map[string]float64{"constraints": float64(ccs.GetNbConstraints())}
	b.rec.emit("setup", []float64{time.Since(t0).Seconds()}, metrics)
	b.witness(metrics)
	var proof plonk.Proof
	b.measure(metrics,
		func() error { proof, err = plonk.Prove(ccs, pk, b.wit); return err },
		func() (int, error) { return serializedLen(proof) },
		func(pub witness.Witness) error { return plonk.Verify(proof, vk, pub) })
}

// serializedLen is the length of gnark's binary serialization of a proof.
func serializedLen(p io.WriterTo) (int, error) {
	var buf bytes.Buffer
	_, err := p.WriteTo(&buf)
	return buf.Len(), err
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

// cpuSeconds is the user + system CPU time of this process (all threads).
func cpuSeconds() float64 {
	var u syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &u) != nil {
		return 0
	}
	tv := func(t syscall.Timeval) float64 { return float64(t.Sec) + float64(t.Usec)*1e-6 }
	return tv(u.Utime) + tv(u.Stime)
}

// sample runs f warmup times, then measures it until the profile is satisfied: wall and CPU
// seconds of every sample.
func sample(p profile, f func() error, fail func(error)) ([]float64, []float64) {
	for i := 0; i < p.Warmup; i++ {
		if err := f(); err != nil {
			fail(err)
		}
	}
	var out, cpu []float64
	spent := 0.0
	for len(out) < p.MinSamples || (len(out) < p.MaxSamples && spent < p.TargetSeconds) {
		t, c := time.Now(), cpuSeconds()
		if err := f(); err != nil {
			fail(err)
		}
		d := time.Since(t).Seconds()
		cpu = append(cpu, cpuSeconds()-c)
		spent += d
		out = append(out, d)
	}
	return out, cpu
}
