import AwareCore

extension ProfileReader {
    mutating func readPairing(_ node: JSONValue, at path: String) -> PairingSettings? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["bootstrappingMethods", "pin", "cache", "cipherSuites", "maxPairedDevices", "whenFull"],
                required: []
            )
        else { return nil }
        var pairing = PairingSettings()
        var valid = true
        if view.has("bootstrappingMethods") {
            if let methods = enumerationList(view, "bootstrappingMethods", BootstrappingMethod.self) {
                pairing.bootstrappingMethods = methods
            } else {
                valid = false
            }
            if case .array(let items) = view["bootstrappingMethods"],
                !items.contains(where: { $0.sameValue(as: .string(BootstrappingMethod.pinDisplay.rawValue)) })
            {
                // The phone bootstraps with PIN keypad, so it needs the accessory to display one
                // (apple-peer-model.md 3).
                report(
                    view.path("bootstrappingMethods"),
                    view["bootstrappingMethods"],
                    "must include \"pinDisplay\": the phone types the PIN the accessory displays"
                )
                valid = false
            }
        }
        if let node = view["pin"] {
            if let pin = readPin(node, at: view.path("pin")) { pairing.pin = pin } else { valid = false }
        }
        if let node = view["cache"] {
            if let cache = readCache(node, at: view.path("cache")) { pairing.cache = cache } else { valid = false }
        }
        if view.has("cipherSuites") {
            if let suites = enumerationList(view, "cipherSuites", PairingCipherSuite.self) {
                pairing.cipherSuites = suites
            } else {
                valid = false
            }
        }
        if view.has("maxPairedDevices") {
            if let cap = integer(view, "maxPairedDevices", in: PairingSettings.maxPairedDevicesRange) {
                pairing.maxPairedDevices = cap
            } else {
                valid = false
            }
        }
        if view.has("whenFull") {
            if let policy = enumeration(view, "whenFull", PairingSettings.WhenFull.self) {
                pairing.whenFull = policy
            } else {
                valid = false
            }
        }
        return valid ? pairing : nil
    }

    private mutating func readPin(_ node: JSONValue, at path: String) -> PinPolicy? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["length", "fixed", "maxWrongAttempts", "lockoutSeconds", "comebackAfterTU"],
                required: []
            )
        else { return nil }
        var pin = PinPolicy()
        var valid = true
        func take(_ key: String, _ range: ClosedRange<Int>, into value: inout Int) {
            guard view.has(key) else { return }
            if let number = integer(view, key, in: range) { value = number } else { valid = false }
        }
        let length = integer(view, "length", in: 4...8)
        if let length { pin.length = length } else if view.has("length") { valid = false }
        take("maxWrongAttempts", 1...10, into: &pin.maxWrongAttempts)
        take("lockoutSeconds", 0...3600, into: &pin.lockoutSeconds)
        take("comebackAfterTU", 1...65_535, into: &pin.comebackAfterTU)
        if let fixed = string(view, "fixed") {
            let digits = fixed.unicodeScalars
            if digits.count >= 4 && digits.count <= 8 && digits.allSatisfy({ ("0"..."9").contains($0) }) {
                pin.fixed = fixed
                if !view.has("length") {
                    pin.length = digits.count
                } else if let length, digits.count != length {
                    // Semantic: JSON Schema cannot compare a string's length with another member.
                    report(view.path("fixed"), view["fixed"], "has \(digits.count) digits but `length` is \(length)")
                    valid = false
                }
            } else {
                report(view.path("fixed"), view["fixed"], "must be 4 to 8 digits")
                valid = false
            }
        } else if view.has("fixed") {
            valid = false
        }
        return valid ? pin : nil
    }

    private mutating func readCache(_ node: JSONValue, at path: String) -> PairingCache? {
        guard let view = object(node, at: path, allowed: ["npk", "nik", "nikLifetimeSeconds"], required: []) else {
            return nil
        }
        var cache = PairingCache()
        var valid = true
        if view.has("npk") {
            if let value = bool(view, "npk") { cache.npk = value } else { valid = false }
        }
        if view.has("nik") {
            if let value = bool(view, "nik") { cache.nik = value } else { valid = false }
        }
        if view.has("nikLifetimeSeconds") {
            if let value = integer(view, "nikLifetimeSeconds", in: 0...31_536_000) {
                cache.nikLifetimeSeconds = value
            } else {
                valid = false
            }
        }
        if case .bool(false) = view["npk"] ?? .null, cache.nik || !view.has("nik") {
            // Without the NPK there is no pairing verification, so a cached NIK would resolve a
            // peer the accessory can no longer authenticate.
            report(
                view.path("nik"),
                view["nik"],
                "must be set to false when `npk` is false: a NIK alone cannot verify a peer"
            )
            valid = false
        }
        return valid ? cache : nil
    }
}
