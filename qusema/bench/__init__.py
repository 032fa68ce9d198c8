"""`qusema bench`: replay historical silent bugs on the releases where they live and score
the auditor (identified defects, relocated bugs, cost, funnel).

The self-check reproducers under benchmarks/historical/selfcheck/ are ground truth for the
harness only: nothing the auditor runs imports this package."""
