// Generates Poseidon2 (BN254, x^5) permutation known-answer vectors from
// gnark-crypto's ecc/bn254/fr/poseidon2 package for the widths whose built-in
// constants are HorizenLabs' instances (t = 4, 8, 12, 16; gnark's t = 2, 3 use a
// Keccak-chain seed and are a different instance, so they are not emitted).
//
// Usage (from this directory): go run . > cases.json
// The printed cases are merged into testdata/poseidon2.json.
package main

import (
	"encoding/json"
	"fmt"
	"math/big"
	"os"

	"github.com/consensys/gnark-crypto/ecc/bn254/fr"
	"github.com/consensys/gnark-crypto/ecc/bn254/fr/poseidon2"
)

const source = "github.com/consensys/gnark-crypto@v0.22.0 ecc/bn254/fr/poseidon2 (NewPermutation(t, 8, R_P).Permutation / NewParameters), run by scripts/gen-testdata/poseidon2/main.go"

type kase struct {
	Name   string   `json:"name"`
	Mode   string   `json:"mode"`
	Width  int      `json:"width"`
	Alpha  int      `json:"alpha"`
	Input  []string `json:"input,omitempty"`
	Output []string `json:"output"`
	Source string   `json:"source"`
}

// dec is the canonical decimal representative (fr.Element.String prints
// elements close to r as negative numbers).
func dec(e *fr.Element) string {
	return e.BigInt(new(big.Int)).String()
}

func main() {
	var cases []kase
	rounds := map[int]int{4: 56, 8: 57, 12: 57, 16: 57}
	for _, t := range []int{4, 8, 12, 16} {
		perm := poseidon2.NewPermutation(t, 8, rounds[t])
		inputs := map[string][]fr.Element{}
		seq := make([]fr.Element, t)
		zero := make([]fr.Element, t)
		big := make([]fr.Element, t)
		for i := range t {
			seq[i].SetUint64(uint64(i))
			// r - 1 - i
			big[i].SetInt64(int64(-1 - i))
		}
		inputs["sequential"] = seq
		inputs["zeros"] = zero
		inputs["minus_one_minus_i"] = big
		for _, kind := range []string{"sequential", "zeros", "minus_one_minus_i"} {
			in := inputs[kind]
			state := make([]fr.Element, t)
			copy(state, in)
			if err := perm.Permutation(state); err != nil {
				fmt.Fprintln(os.Stderr, err)
				os.Exit(1)
			}
			c := kase{
				Name:   fmt.Sprintf("gnark_t%d_a5_%s", t, kind),
				Mode:   "permutation",
				Width:  t,
				Alpha:  5,
				Source: source,
			}
			for i := range t {
				c.Input = append(c.Input, dec(&in[i]))
				c.Output = append(c.Output, dec(&state[i]))
			}
			cases = append(cases, c)
		}
	}
	// The constants themselves: round constants in Grain order (4t, R_P, 4t) and
	// the internal diagonal minus one (gnark's DiagM1).
	for _, t := range []int{4, 8, 12, 16} {
		params := poseidon2.NewParameters(t, 8, rounds[t])
		rcs := kase{Name: fmt.Sprintf("gnark_t%d_a5_round_constants", t), Mode: "round_constants", Width: t, Alpha: 5, Source: source}
		for r, row := range params.RoundKeys {
			if r >= 4 && r < 4+rounds[t] {
				// partial round: one constant (any further entries must be zero)
				for i := 1; i < len(row); i++ {
					if !row[i].IsZero() {
						panic("non-zero partial round key beyond index 0")
					}
				}
				row = row[:1]
			}
			for i := range row {
				rcs.Output = append(rcs.Output, dec(&row[i]))
			}
		}
		diag := kase{Name: fmt.Sprintf("gnark_t%d_a5_internal_diagonal_minus_one", t), Mode: "internal_diagonal_minus_one", Width: t, Alpha: 5, Source: source}
		for i := range params.DiagM1 {
			diag.Output = append(diag.Output, dec(&params.DiagM1[i]))
		}
		cases = append(cases, rcs, diag)
	}
	enc := json.NewEncoder(os.Stdout)
	enc.SetIndent("", "  ")
	if err := enc.Encode(cases); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
