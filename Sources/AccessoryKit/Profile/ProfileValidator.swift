import AwareCore
import AwareWire

/// Turns a parsed JSON tree into an `AccessoryProfile`, or into the complete list of problems.
enum ProfileValidator {
    static let rootKeys = [
        "$schema", "formatVersion", "description", "device", "radio", "services", "pairing",
        "performance", "app", "subscriptions",
    ]

    static func validate(_ root: JSONValue) -> Result<AccessoryProfile, ProfileError> {
        var reader = ProfileReader()
        let profile = reader.readProfile(root)
        if let profile, reader.issues.isEmpty { return .success(profile) }
        return .failure(.invalid(reader.issues))
    }
}

extension ProfileReader {
    mutating func readProfile(_ root: JSONValue) -> AccessoryProfile? {
        guard let view = object(root, at: "", allowed: ProfileValidator.rootKeys, required: ["device", "services"])
        else { return nil }
        if let node = view["$schema"] { _ = string(node, at: view.path("$schema")) }
        if let node = view["formatVersion"] {
            if node.doubleValue == Double(AccessoryProfile.currentFormatVersion) {
            } else {
                report(view.path("formatVersion"), node, "must be 1, the only profile format so far")
            }
        }
        let description = string(view, "description")
        let device = view["device"].flatMap {
            readDevice($0, at: view.path("device"), offersPairing: view.has("pairing"))
        }
        let radio = view["radio"].map { readRadio($0, at: view.path("radio")) } ?? RadioSettings()
        let services = view.has("services") ? readServices(view, offersPairing: view.has("pairing")) : nil
        let pairing = view["pairing"].map { readPairing($0, at: view.path("pairing")) }
        let performance =
            view["performance"].map { readPerformance($0, at: view.path("performance")) } ?? PerformanceSettings()
        let app = view["app"].map {
            readApp($0, at: view.path("app"), serviceNames: Self.serviceNames(view["services"]))
        }
        let subscriptions: [SubscriptionProfile]?? = view.has("subscriptions") ? .some(readSubscriptions(view)) : .none
        guard let device, let radio, let services, let performance else { return nil }
        var profile = AccessoryProfile(device: device, radio: radio, services: services, performance: performance)
        profile.description = description
        if let pairing {
            guard let pairing else { return nil }
            profile.pairing = pairing
        }
        if let app {
            guard let app else { return nil }
            profile.app = app
        }
        if let subscriptions {
            guard let subscriptions else { return nil }
            profile.subscriptions = subscriptions
        }
        return profile
    }

    /// The names the `services` list gives, whatever else is wrong with those services.
    static func serviceNames(_ node: JSONValue?) -> [String] {
        guard let items = node?.arrayValue else { return [] }
        return items.compactMap { $0["name"]?.stringValue }
    }

    mutating func readDevice(_ node: JSONValue, at path: String, offersPairing: Bool) -> DeviceIdentity? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["vendorName", "modelName", "pairingName"],
                required: ["vendorName", "modelName"]
            )
        else { return nil }
        let vendorName = txtValue(view, "vendorName")
        if vendorName == "Apple Inc." {
            // DAWiFiScanner skips results whose vendor is exactly "Apple Inc." (apple-peer-model.md 2.1).
            report(
                view.path("vendorName"),
                view["vendorName"],
                "is reserved: the phone ignores accessories from \"Apple Inc.\""
            )
        }
        let modelName = txtValue(view, "modelName")
        let pairingName = txtValue(view, "pairingName")
        if offersPairing && !view.has("pairingName") {
            report(
                view.path("pairingName"),
                nil,
                "is required when the profile offers pairing (`pairing` is present): the phone's picker shows it"
            )
        }
        guard let vendorName, let modelName, vendorName != "Apple Inc." else { return nil }
        if view.has("pairingName") && pairingName == nil { return nil }
        return DeviceIdentity(vendorName: vendorName, modelName: modelName, pairingName: pairingName)
    }

    mutating func readRadio(_ node: JSONValue, at path: String) -> RadioSettings? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["nmi", "nmiSeed", "discoveryChannels", "maxDataPathPeers"],
                required: []
            )
        else { return nil }
        var radio = RadioSettings()
        var valid = true
        if let nmi = string(view, "nmi") {
            if Self.isUnicastMAC(nmi) {
                radio.nmi = nmi
            } else {
                report(
                    view.path("nmi"),
                    view["nmi"],
                    "must be a unicast MAC address other than 00:00:00:00:00:00, written as six colon-separated "
                        + "hex octets, like 02:00:00:00:00:01"
                )
                valid = false
            }
        } else if view.has("nmi") {
            valid = false
        }
        if let seed = integer(view, "nmiSeed", in: 0...Int(UInt32.max)) {
            radio.nmiSeed = UInt32(seed)
        } else if view.has("nmiSeed") {
            valid = false
        }
        if view.has("nmi") && view.has("nmiSeed") {
            report(view.path("nmiSeed"), nil, "cannot be combined with `nmi`: give a fixed address or a seed, not both")
            valid = false
        }
        if let items = array(view, "discoveryChannels", minItems: 1) {
            let listPath = view.path("discoveryChannels")
            var channels: [Int] = []
            valid = checkUnique(items, at: listPath) && valid
            for (index, item) in items.enumerated() {
                if let channel = item.integerValue.flatMap({ Int(exactly: $0) }), [6, 149].contains(channel) {
                    channels.append(channel)
                } else {
                    report(
                        ProfileReader.path(listPath, index: index),
                        item,
                        "must be 6 or 149, the NAN discovery channels"
                    )
                    valid = false
                }
            }
            if !items.contains(where: { $0.doubleValue == 6 }) {
                report(listPath, view["discoveryChannels"], "must include channel 6, where every NAN device discovers")
                valid = false
            }
            radio.discoveryChannels = channels
        } else if view.has("discoveryChannels") {
            valid = false
        }
        if view.has("maxDataPathPeers") {
            if let peers = integer(view, "maxDataPathPeers", in: RadioSettings.maxDataPathPeersRange) {
                radio.maxDataPathPeers = peers
            } else {
                valid = false
            }
        }
        return valid ? radio : nil
    }

    /// `^[0-9A-Fa-f][02468ACEace](:[0-9A-Fa-f]{2}){5}$`: six octets, group bit clear.
    static func isUnicastMAC(_ text: String) -> Bool {
        let parts = text.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 6 else { return false }
        for part in parts {
            guard part.utf8.count == 2, part.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
            else { return false }
        }
        // 00:00:00:00:00:00 names no station (Linux and hostap read it as "unset").
        return MACAddress(string: text)?.isStationAddress == true
    }
}
