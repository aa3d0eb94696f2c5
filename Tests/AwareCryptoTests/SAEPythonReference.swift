// The independent reference for SAE H2E, commit and keys: pure Python (standard library only),
// written from IEEE 802.11-2020 12.4 and RFC 9380 6.6.2, sharing no code with the Swift
// implementation. It reproduces the J.10 PWE vector and every `pairing.sae` value of the hostap
// session-A transcript (checked when it was written); `SAEGroup20Tests` runs it with
// `python3 -c` and also keeps the values it printed once as literals.
//
// Usage: python3 -c SCRIPT GROUP SSID PASSWORD ADDR1 ADDR2 RAND MASK PEER_RAND PEER_MASK
// Prints JSON: pwdSeed, u1, u2, p1, p2, pt, pwe (x || y hex), and for "mine" (rand, mask) and
// "peer" (peer rand, peer mask): scalar, element, k, keyseed, kck, pmk, pmkid, confirm
// (send-confirm 1).
enum SAEPythonReference {
    static let script = #"""
        import hashlib, hmac, sys, json
        C = {
         19: dict(p=0xffffffff00000001000000000000000000000000ffffffffffffffffffffffff,
                  b=0x5ac635d8aa3a93e7b3ebbd55769886bc651d06b0cc53b0f63bce3c3e27d2604b,
                  r=0xffffffff00000000ffffffffffffffffbce6faada7179e84f3b9cac2fc632551, z=-10, h=hashlib.sha256, n=32),
         20: dict(p=0xfffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffffeffffffff0000000000000000ffffffff,
                  b=0xb3312fa7e23ee7e4988e056be3f82d19181d9c6efe8141120314088f5013875ac656398d8a2ed19d2a85c8edd3ec2aef,
                  r=0xffffffffffffffffffffffffffffffffffffffffffffffffc7634d81f4372ddf581a0db248b0a77aecec196accc52973, z=-12, h=hashlib.sha384, n=48)}
        def add(c, P, Q):
            p = c['p']
            if P is None: return Q
            if Q is None: return P
            if P[0] == Q[0]:
                if (P[1] + Q[1]) % p == 0: return None
                l = (3 * P[0] * P[0] - 3) * pow(2 * P[1], -1, p) % p
            else:
                l = (Q[1] - P[1]) * pow(Q[0] - P[0], -1, p) % p
            x = (l * l - P[0] - Q[0]) % p
            return (x, (l * (P[0] - x) - P[1]) % p)
        def mul(c, k, P):
            R = None
            for bit in bin(k)[2:]:
                R = add(c, R, R)
                if bit == '1': R = add(c, R, P)
            return R
        def sswu(c, u):
            p, a, b, z = c['p'], c['p'] - 3, c['b'], c['z'] % c['p']
            m = (z * z * pow(u, 4, p) + z * u * u) % p
            t = pow(m, p - 2, p)
            x1 = b * pow(z * a, p - 2, p) % p if m == 0 else (-b * pow(a, p - 2, p) * (1 + t)) % p
            g = lambda x: (x ** 3 + a * x + b) % p
            x2 = z * u * u * x1 % p
            if pow(g(x1), (p - 1) // 2, p) in (0, 1): x, v = x1, g(x1)
            else: x, v = x2, g(x2)
            y = pow(v, (p + 1) // 4, p)
            assert y * y % p == v
            if (u & 1) != (y & 1): y = p - y
            return (x, y)
        def hkdf_extract(h, salt, ikm): return hmac.new(salt, ikm, h).digest()
        def hkdf_expand(h, prk, info, L):
            out, t, i = b'', b'', 1
            while len(out) < L:
                t = hmac.new(prk, t + info + bytes([i]), h).digest(); out += t; i += 1
            return out[:L]
        def kdf(h, key, label, ctx, bits):
            out, i = b'', 1
            while len(out) * 8 < bits:
                out += hmac.new(key, i.to_bytes(2, 'little') + label + ctx + bits.to_bytes(2, 'little'), h).digest(); i += 1
            return out[:bits // 8]
        def pt(g, ssid, pw, ident=b''):
            c = C[g]; n = c['n']
            seed = hkdf_extract(c['h'], ssid, pw + ident)
            L = n + (n + 1) // 2
            us = [int.from_bytes(hkdf_expand(c['h'], seed, lab, L), 'big') % c['p'] for lab in (b'SAE Hash to Element u1 P1', b'SAE Hash to Element u2 P2')]
            P1, P2 = sswu(c, us[0]), sswu(c, us[1])
            return seed, us, P1, P2, add(c, P1, P2)
        def pwe(g, PT, a1, a2):
            c = C[g]
            v = int.from_bytes(hkdf_extract(c['h'], bytes(c['n']), max(a1, a2) + min(a1, a2)), 'big') % (c['r'] - 1) + 1
            return mul(c, v, PT)
        def enc(c, P): return P[0].to_bytes(c['n'], 'big') + P[1].to_bytes(c['n'], 'big')
        def session(g, PWE, rand, mask, prand, pmask):
            c = C[g]; r, n, p = c['r'], c['n'], c['p']
            s = (rand + mask) % r; E = mul(c, mask, PWE); E = (E[0], p - E[1])
            ps = (prand + pmask) % r; PE = mul(c, pmask, PWE); PE = (PE[0], p - PE[1])
            K = mul(c, rand, add(c, mul(c, ps, PWE), PE))
            k = K[0].to_bytes(n, 'big')
            keyseed = hmac.new(bytes(n), k, c['h']).digest()
            ctx = ((s + ps) % r).to_bytes(n, 'big')
            out = kdf(c['h'], keyseed, b'SAE KCK and PMK', ctx, (n + 32) * 8)
            kck, pmk = out[:n], out[n:]
            conf = hmac.new(kck, (1).to_bytes(2, 'little') + s.to_bytes(n, 'big') + enc(c, E) + ps.to_bytes(n, 'big') + enc(c, PE), c['h']).digest()
            return dict(scalar=s.to_bytes(n, 'big').hex(), element=enc(c, E).hex(), k=k.hex(), keyseed=keyseed.hex(), kck=kck.hex(), pmk=pmk.hex(), pmkid=ctx[:16].hex(), confirm=conf.hex())
        g, ssid, pw, a1, a2, rand, mask, prand, pmask = sys.argv[1:10]
        g = int(g); seed, us, P1, P2, PT = pt(g, ssid.encode(), pw.encode())
        W = pwe(g, PT, bytes.fromhex(a1), bytes.fromhex(a2))
        c = C[g]
        res = dict(pwdSeed=seed.hex(), u1=us[0].to_bytes(c['n'], 'big').hex(), u2=us[1].to_bytes(c['n'], 'big').hex(), p1=enc(c, P1).hex(), p2=enc(c, P2).hex(), pt=enc(c, PT).hex(), pwe=enc(c, W).hex())
        res['mine'] = session(g, W, int(rand, 16), int(mask, 16), int(prand, 16), int(pmask, 16))
        res['peer'] = session(g, W, int(prand, 16), int(pmask, 16), int(rand, 16), int(mask, 16))
        print(json.dumps(res))
        """#
}
