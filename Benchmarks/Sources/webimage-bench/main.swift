print("benchmarks: see scripts/bench")
