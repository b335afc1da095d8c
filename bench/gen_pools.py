#!/usr/bin/env python3
"""Generate N Karpenter NodePools for archfit's feasibility benchmark (bench/run pools).

Deterministic. The pools are shaped like a large cluster's: half arm64 (tainted
kubernetes.io/arch=arm64:NoSchedule, as archfit's default configuration expects), half amd64;
spot and on-demand capacity; a `node-pool` label (general, batch, memory) that some of the
synthetic stream's templates select; zones; and every fifth pool dedicated to a team by a taint
no template tolerates. Most templates so fit some pool only after several are ruled out, and a
few fit none (they get no-feasible-pool, with every pool's reason worded).
"""
import argparse
import sys


def pool(i):
    arch = "arm64" if i % 2 else "amd64"
    group = ["general", "batch", "memory"][i % 3]
    capacity = ["spot", "on-demand"][(i // 2) % 2]
    zone = ["eu-west-1a", "eu-west-1b", "eu-west-1c"][(i // 3) % 3]
    taints = []
    if arch == "arm64":
        taints.append("      - key: kubernetes.io/arch\n        value: arm64\n        effect: NoSchedule\n")
    if i % 5 == 0:
        taints.append(f"      - key: dedicated\n        value: team-{i}\n        effect: NoSchedule\n")
    text = (
        "---\n"
        "apiVersion: karpenter.sh/v1\n"
        "kind: NodePool\n"
        "metadata:\n"
        f"  name: pool-{i:02d}\n"
        "spec:\n"
        f"  weight: {1 + i % 10}\n"
        "  template:\n"
        "    metadata:\n"
        f"      labels: {{node-pool: {group}}}\n"
        "    spec:\n"
        "      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: default}\n"
        "      requirements:\n"
        "      - key: kubernetes.io/arch\n"
        "        operator: In\n"
        f"        values: [{arch}]\n"
        "      - key: karpenter.sh/capacity-type\n"
        "        operator: In\n"
        f"        values: [{capacity}]\n"
        "      - key: topology.kubernetes.io/zone\n"
        "        operator: In\n"
        f"        values: [{zone}]\n"
        "      - key: karpenter.k8s.aws/instance-category\n"
        "        operator: In\n"
        "        values: [c, m, r]\n"
    )
    if taints:
        text += "      taints:\n" + "".join(taints)
    return text


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pools", type=int, default=50)
    args = parser.parse_args()
    sys.stdout.write("".join(pool(i) for i in range(args.pools)))


if __name__ == "__main__":
    main()
