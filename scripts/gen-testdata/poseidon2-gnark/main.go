// Generates known-answer vectors for zkbench's `poseidon2-gnark` hash family
// from gnark-crypto's ecc/bn254/fr/poseidon2 package: gnark's default BN254
// Poseidon2 instance (width 2, R_F = 6, R_P = 50, x^5, round keys from the
// Keccak-256 chain seeded with "Poseidon2-BN254[t=2,rF=6,rP=50,d=5]"), its
// 2-to-1 Compress (perm(l, r)[1] + r), its Merkle-Damgard hash of field
// elements and binary Merkle roots built from Compress — the hash gnark's
// std/permutation/poseidon2 gadget proves (the `peers/gnark` runner).
//
// Usage (from this directory): go run . > ../../../testdata/poseidon2_gnark.json
package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
)

const source = "github.com/consensys/gnark-crypto@v0.22.0 ecc/bn254/fr/poseidon2 (GetDefaultParameters = NewParameters(2, 6, 50)), run by scripts/gen-testdata/poseidon2-gnark/main.go"

type kase struct {
	Name   string   `json:"name"`
	Mode   string   `json:"mode"`
	Width  int      `json:"width"`
	Alpha  int      `json:"alpha"`
	Input  []string `json:"input,omitempty"`
	Output []string `json:"output"`
	Source string   `json:"source"`
}

type file struct {
	Family      string `json:"family"`
	Description string `json:"description"`
	Cases       []kase `json:"cases"`
}

func dec(e *fr.Element) string { return e.BigInt(new(big.Int)).String() }

func must(err error) {
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}

func compress(perm *poseidon2.Permutation, l, r fr.Element) fr.Element {
	lb, rb := l.Bytes(), r.Bytes()
	out, err := perm.Compress(lb[:], rb[:])
	must(err)
	var e fr.Element
	must(e.SetBytesCanonical(out))
	return e
}

func mk(name, mode string, in, out []fr.Element) kase {
	c := kase{Name: name, Mode: mode, Width: 2, Alpha: 5, Source: source}
	for i := range in {
		c.Input = append(c.Input, dec(&in[i]))
	}
	for i := range out {
		c.Output = append(c.Output, dec(&out[i]))
	}
	return c
}

func elems(xs ...int64) []fr.Element {
	out := make([]fr.Element, len(xs))
	for i, x := range xs {
		out[i].SetInt64(x)
	}
	return out
}

func main() {
	params := poseidon2.GetDefaultParameters()
	if params.Width != 2 || params.NbFullRounds != 6 || params.NbPartialRounds != 50 {
		panic("gnark-crypto's default parameters changed")
	}
	perm := poseidon2.NewPermutation(2, 6, 50)
	var cases []kase

	// Permutations.
	for _, in := range []struct {
		name string
		x    []fr.Element
	}{{"sequential", elems(0, 1)}, {"zeros", elems(0, 0)}, {"minus_one_minus_i", elems(-1, -2)}} {
		state := append([]fr.Element(nil), in.x...)
		must(perm.Permutation(state))
		cases = append(cases, mk("gnark_t2_"+in.name, "permutation", in.x, state))
	}

	// Round constants: R_F/2 * t external, R_P internal, R_F/2 * t external.
	var rcs []fr.Element
	for _, row := range params.RoundKeys {
		rcs = append(rcs, row...)
	}
	cases = append(cases, mk("gnark_t2_round_constants", "round_constants", nil, rcs))

	// Compress(left, right) = perm(left, right)[1] + right.
	for _, in := range []struct {
		name string
		x    []fr.Element
	}{{"one_two", elems(1, 2)}, {"zeros", elems(0, 0)}, {"minus_one_minus_two", elems(-1, -2)}} {
		out := compress(perm, in.x[0], in.x[1])
		cases = append(cases, mk("gnark_compress_"+in.name, "compress", in.x, []fr.Element{out}))
	}

	// gnark's hash.Hash for POSEIDON2_BN254: Merkle-Damgard over Compress, IV 0.
	for _, n := range []int{1, 2, 5} {
		in := make([]fr.Element, n)
		for i := range in {
			in[i].SetUint64(uint64(i + 1))
		}
		h := poseidon2.NewMerkleDamgardHasher()
		for i := range in {
			b := in[i].Bytes()
			_, err := h.Write(b[:])
			must(err)
		}
		var out fr.Element
		must(out.SetBytesCanonical(h.Sum(nil)))
		cases = append(cases, mk(fmt.Sprintf("gnark_md_hash_%d", n), "hash", in, []fr.Element{out}))
	}

	// Binary Merkle roots: leaves 1..2^d, nodes Compress(left, right).
	for _, d := range []int{1, 3} {
		level := make([]fr.Element, 1<<d)
		for i := range level {
			level[i].SetUint64(uint64(i + 1))
		}
		leaves := append([]fr.Element(nil), level...)
		for len(level) > 1 {
			next := make([]fr.Element, len(level)/2)
			for i := range next {
				next[i] = compress(perm, level[2*i], level[2*i+1])
			}
			level = next
		}
		cases = append(cases, mk(fmt.Sprintf("gnark_merkle_root_depth%d", d), "merkle_root", leaves, level))
	}

	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	must(enc.Encode(file{
		Family:      "poseidon2-gnark",
		Description: "gnark-crypto's default BN254 Poseidon2 (t = 2, R_F = 6, R_P = 50, alpha = 5, Keccak-chain round keys): permutation, round constants, Compress, Merkle-Damgard hash, binary Merkle roots",
		Cases:       cases,
	}))
}
