/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Canopy GraphQL endpoint; default http://localhost:4000/graphql. */
  readonly VITE_GRAPHQL_URL?: string;
  /** A bearer token or API key, sent as `Authorization: Bearer …` (servers with AUTH set). */
  readonly VITE_CANOPY_TOKEN?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
