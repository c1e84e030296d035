"""The evaluation harness: retrieval quality against baselines and a peer measured in the
same run, scenario suites for what real data lacks, and the hard gates (see
docs/evaluation.md).

* :mod:`~recallflow.evaluation.metrics`: Recall@k, nDCG@10, MRR, RRF, percentiles.
* :mod:`~recallflow.evaluation.datasets`: the :class:`Dataset` protocol a dataset plugs in by.
* :mod:`~recallflow.evaluation.locomo`: LoCoMo as a dataset (and the one evidence-id repair).
* :mod:`~recallflow.evaluation.keys`, :mod:`~recallflow.evaluation.ingest`: documents to
  beliefs, episodes and edges through the public ingestion surface.
* :mod:`~recallflow.evaluation.baselines`, :mod:`~recallflow.evaluation.peers`: BM25,
  dense, RRF, and LangGraph's PostgresStore, measured in the same run.
* :mod:`~recallflow.evaluation.scenarios`: the scenario suites (JSON data files).
* :mod:`~recallflow.evaluation.gates`: the hard gates.
* :mod:`~recallflow.evaluation.runner`, :mod:`~recallflow.evaluation.report`: the run and
  its Markdown/JSON report.

Heavy dependencies (bm25s, PyStemmer, langgraph, tqdm) are imported by the modules that
need them, never by this package's ``__init__``.
"""
