/// <reference types="vite/client" />

interface ImportMetaEnv {
  /** The Canopy GraphQL endpoint; default http://localhost:4000/graphql. */
  readonly VITE_GRAPHQL_URL?: string;
}

interface ImportMeta {
  readonly env: ImportMetaEnv;
}
