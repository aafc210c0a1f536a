"""The peer of the accounting benchmark: Google's dp_accounting PLD library on the same workloads.

Usage: python3 peer.py DIR [workload ...]   (DIR: the folder that holds the dp_accounting package)
Prints one JSON object per workload: {"name", "seconds", "epsilon"}. The workloads are those of
bench.mjs (keep them in step): each is composed with the PLD module directly, at the library's
default discretization (1e-4), pessimistic estimate.
"""
import json
import sys
import time

sys.path.insert(0, sys.argv[1])
from dp_accounting.pld import privacy_loss_distribution as pldlib  # noqa: E402

DELTA = 1e-5
H = 1e-4


def gaussians():
    # 10^6 Gaussians of σ = 1000 (sensitivity 1): dp_accounting composes them as one Gaussian.
    return pldlib.from_gaussian_mechanism(standard_deviation=1000 / 1e3, value_discretization_interval=H)


def laplace():
    # 10^6 Laplace mechanisms of scale 1000 (sensitivity 1).
    return pldlib.from_laplace_mechanism(parameter=1000, value_discretization_interval=H).self_compose(10**6)


def distinct_laplace():
    # 1,000 Laplace mechanisms of scales 50, 50.1, ..., 149.9.
    acc = None
    for i in range(1000):
        p = pldlib.from_laplace_mechanism(parameter=50 + i / 10, value_discretization_interval=H)
        acc = p if acc is None else acc.compose(p)
    return acc


def dpsgd():
    # 10,000 steps of the Gaussian mechanism (σ = 1) on Poisson samples at rate 0.01.
    return pldlib.from_gaussian_mechanism(standard_deviation=1.0, value_discretization_interval=H,
                                          sampling_prob=0.01).self_compose(10000)


WORKLOADS = {"gaussians": gaussians, "laplace": laplace, "distinctLaplace": distinct_laplace, "dpsgd": dpsgd}

if __name__ == "__main__":
    names = sys.argv[2:] or list(WORKLOADS)
    for name in names:
        t0 = time.perf_counter()
        eps = WORKLOADS[name]().get_epsilon_for_delta(DELTA)
        dt = time.perf_counter() - t0
        print(json.dumps({"name": name, "seconds": dt, "epsilon": eps}), flush=True)
