// The local node of the pool's tests: Cancun rules (as zkbench's embedded EVM, so that gas
// figures agree: no EIP-7623 calldata floor), Hardhat's default test accounts (public keys from
// the mnemonic "test test ... junk": test keys only), automine.
module.exports = {
  networks: {
    hardhat: {
      hardfork: "cancun",
      chainId: 31337,
    },
  },
};
