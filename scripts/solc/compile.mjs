// Compiles Solidity with the pinned solc-js (package.json) for crates/evm.
//   node compile.mjs --version      prints the compiler's full version
//   node compile.mjs < input.json   standard-JSON input on stdin, standard-JSON output on stdout
import { readFileSync } from "fs";
import solc from "solc";

if (process.argv[2] === "--version") {
  console.log(solc.version());
} else {
  const input = readFileSync(0, "utf8");
  process.stdout.write(solc.compile(input));
}
