module github.com/zkbench/zkbench/peers/gnark-crypto-msm

go 1.25.7

require github.com/consensys/gnark-crypto v0.21.0

require (
	github.com/bits-and-blooms/bitset v1.24.6 // indirect
	golang.org/x/sys v0.47.0 // indirect
)
