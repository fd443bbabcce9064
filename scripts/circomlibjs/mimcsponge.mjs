// Prints the creation code (hex, 0x-prefixed) of circomlibjs's MiMCSponge hasher contract: the
// hasher Tornado Cash deploys (circomlib's generator: seed "mimcsponge", 220 rounds), exposing
// MiMCSponge(uint256 xL, uint256 xR, uint256 k) returns (uint256 xL, uint256 xR).
// Used by crates/pool/src/tornado.rs (the Tornado Cash baseline); `npm ci` here first.
import { mimcSpongecontract } from "circomlibjs";

const seed = process.argv[2] ?? "mimcsponge";
const rounds = Number(process.argv[3] ?? 220);
if (!Number.isInteger(rounds) || rounds < 2) {
  console.error(`rounds must be an integer >= 2, got ${process.argv[3]}`);
  process.exit(2);
}
process.stdout.write(mimcSpongecontract.createCode(seed, rounds) + "\n");
