#!/usr/bin/env python3
"""The same-run baseline of `aware-bench pairing` and `aware-bench sae-pt`.

Times, in CPU seconds of this process (time.process_time, as aware-bench times itself with
CLOCK_PROCESS_CPUTIME_ID), the operations aware-bench counts in its own work:

  fixedBase     k*G: ec.derive_private_key(k, curve)   (an ECDH key pair; OpenSSL via `cryptography`)
  variableBase  k*P: private_key.exchange(ECDH(), peer) (an ECDH shared secret)
  fieldExp      x^e mod p with a full-size e: Python's built-in pow(), no `cryptography`;
                the work of one SSWU inversion, Legendre symbol or square root

Each is run in `--rounds` rounds of `--ops` operations; a round's CPU time divided by its
operations is one sample, and the median sample is reported. Scalars come from a
random.Random seeded with `--seed`, so two runs do the same work. Python's call overhead is
included: it is a few microseconds against tens to hundreds for a scalar multiplication.

Prints one JSON object. Exits 3 when `cryptography` cannot be imported (aware-bench then
prints "baseline unavailable").
"""

import argparse
import json
import random
import statistics
import sys
import time

# The field primes of P-256 and P-384 (FIPS 186-4 D.1.2.3, D.1.2.4).
PRIMES = {
    "p256": 2**256 - 2**224 + 2**192 + 2**96 - 1,
    "p384": 2**384 - 2**128 - 2**96 + 2**32 - 1,
}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--curve", choices=sorted(PRIMES), required=True)
    parser.add_argument("--ops", type=int, default=50, help="operations per round")
    parser.add_argument("--rounds", type=int, default=7, help="rounds; the median round counts")
    parser.add_argument("--seed", type=int, default=1)
    arguments = parser.parse_args()
    if arguments.ops < 1 or arguments.rounds < 1:
        parser.error("--ops and --rounds must be at least 1")

    try:
        import cryptography
        from cryptography.hazmat.primitives.asymmetric import ec
    except ImportError as error:
        print(f"python3 cannot import cryptography: {error}", file=sys.stderr)
        sys.exit(3)
    try:
        from cryptography.hazmat.backends.openssl.backend import backend

        openssl = backend.openssl_version_text()
    except Exception:  # the version text is a courtesy, not a requirement
        openssl = "unknown OpenSSL"

    curve = ec.SECP256R1() if arguments.curve == "p256" else ec.SECP384R1()
    prime = PRIMES[arguments.curve]
    generator = random.Random(arguments.seed)
    order_bits = curve.key_size
    peer = ec.derive_private_key(generator.getrandbits(order_bits - 1) | 1, curve).public_key()
    ecdh = ec.ECDH()

    def scalars(count):
        return [generator.getrandbits(order_bits - 1) | 1 for _ in range(count)]

    def sample(work, count):
        start = time.process_time()
        work(count)
        return (time.process_time() - start) / count

    def fixed_base(count):
        for k in scalars(count):
            ec.derive_private_key(k, curve)

    keys = [ec.derive_private_key(k, curve) for k in scalars(arguments.ops)]

    def variable_base(count):
        for key in keys[:count]:
            key.exchange(ecdh, peer)

    # Exponent p - 2 (a Fermat inversion) stands for all three kinds: (p-1)/2 and (p+1)/4 are
    # as long and as dense, to within a bit or two.
    bases = [generator.randrange(2, prime) for _ in range(arguments.ops)]

    def field_exponentiation(count):
        for base in bases[:count]:
            pow(base, prime - 2, prime)

    fixed_base(min(arguments.ops, 5))
    variable_base(min(arguments.ops, 5))
    results = {}
    for name, work in (
        ("fixedBase", fixed_base),
        ("variableBase", variable_base),
        ("fieldExp", field_exponentiation),
    ):
        samples = [sample(work, arguments.ops) for _ in range(arguments.rounds)]
        results[name + "Seconds"] = statistics.median(samples)

    print(
        json.dumps(
            {
                "curve": arguments.curve,
                "library": f"python {sys.version.split()[0]}, cryptography {cryptography.__version__} ({openssl})",
                "ops": arguments.ops,
                "rounds": arguments.rounds,
                **results,
            }
        )
    )


if __name__ == "__main__":
    main()
