-- Calibrations of embedders against unrelated text (see "Relevance floor" in
-- docs/architecture.md): per embedder (its name names its version) and corpus version,
-- the unrelated-pair cosine statistics and the corpus embedded as beliefs are (the null a
-- query is compared with at recall). Computed once per store and embedder, then read at
-- every open; a row is never updated, a new corpus version is a new row.

CREATE TABLE embedder_calibrations (
    embedder        text NOT NULL,
    corpus_version  text NOT NULL,
    dimension       integer NOT NULL CHECK (dimension > 0),
    pair_mean       double precision NOT NULL,
    pair_std        double precision NOT NULL CHECK (pair_std > 0),
    null_digest     text NOT NULL,
    null_vectors    bytea NOT NULL,
    created_at      timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (embedder, corpus_version)
);
