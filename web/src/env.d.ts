/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The git commit the page was built from (scripts/build-web.sh sets it). */
  readonly VITE_GIT_COMMIT?: string;
}

declare module "snarkjs";
