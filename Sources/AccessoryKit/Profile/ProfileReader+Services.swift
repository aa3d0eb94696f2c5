import AwareCore
import AwareWire

extension ProfileReader {
    static let serviceKeys = [
        "name", "instanceId", "publishType", "matchFilter", "serviceInfo", "ttlSeconds", "rangeLimited", "datapath",
        "publishPeriodDWs",
    ]
    static let reservedTXTKeys = ["vendorName", "modelName", "pairingName"]

    /// `services`: at least one service; names and instance IDs unique (semantic); services left
    /// without an instance ID get the lowest free ones, in file order.
    mutating func readServices(_ root: ObjectView, offersPairing: Bool) -> [ServiceProfile]? {
        guard let items = array(root, "services", minItems: 1) else { return nil }
        let listPath = root.path("services")
        var services: [ServiceProfile?] = []
        var explicitIDs: [Int?] = []
        for (index, item) in items.enumerated() {
            let path = ProfileReader.path(listPath, index: index)
            let (service, explicitID) = readService(item, at: path, offersPairing: offersPairing)
            services.append(service)
            explicitIDs.append(explicitID)
            if item["datapath"] != nil, !root.has("pairing") {
                report(
                    root.path("pairing"),
                    nil,
                    "is required because \(path).datapath is set: the phone opens data paths only to paired devices"
                )
            }
        }
        for (index, service) in services.enumerated() {
            guard let service else { continue }
            if let first = services[..<index].firstIndex(where: { $0?.name == service.name }) {
                report(
                    ProfileReader.path(ProfileReader.path(listPath, index: index), "name"),
                    .string(service.name),
                    "is already published by services[\(first)]; a service is published at most once"
                )
            }
            if let id = explicitIDs[index], let first = explicitIDs[..<index].firstIndex(of: id) {
                report(
                    ProfileReader.path(ProfileReader.path(listPath, index: index), "instanceId"),
                    .integer(Int64(id)),
                    "is already used by services[\(first)]; instance IDs must be unique"
                )
            }
        }
        var result: [ServiceProfile] = []
        var taken = Set(explicitIDs.compactMap { $0 })
        var next = 1
        for (index, service) in services.enumerated() {
            guard var service else { return nil }
            if explicitIDs[index] == nil {
                while taken.contains(next) { next += 1 }
                guard next <= 255 else {
                    report(ProfileReader.path(listPath, index: index), nil, "no instance ID left: NAN has 255")
                    return nil
                }
                service.instanceId = next
                taken.insert(next)
            }
            result.append(service)
        }
        return result
    }

    private mutating func readService(
        _ node: JSONValue,
        at path: String,
        offersPairing: Bool
    ) -> (ServiceProfile?, Int?) {
        guard let view = object(node, at: path, allowed: Self.serviceKeys, required: ["name", "publishType"]) else {
            return (nil, nil)
        }
        var valid = true
        var name: String?
        if let text = string(view, "name") {
            do {
                _ = try ServiceName(text)
                name = text
            } catch {
                report(view.path("name"), view["name"], error.description)
            }
        }
        let instanceId = integer(view, "instanceId", in: 1...255)
        if view.has("instanceId") && instanceId == nil { valid = false }
        let publishType = enumeration(view, "publishType", PublishType.self)
        var matchFilter: String?
        if let spec = string(view, "matchFilter") {
            if spec.isEmpty {
                report(
                    view.path("matchFilter"),
                    view["matchFilter"],
                    "must not be empty; leave `matchFilter` out for no filter"
                )
                valid = false
            } else {
                do {
                    matchFilter = try MatchingFilter(spec: spec).spec
                } catch {
                    report(view.path("matchFilter"), view["matchFilter"], error.description)
                    valid = false
                }
            }
        } else if view.has("matchFilter") {
            valid = false
        }
        var serviceInfo: ServiceInfo?
        if let node = view["serviceInfo"] {
            serviceInfo = readServiceInfo(node, at: view.path("serviceInfo"), offersPairing: offersPairing)
            if serviceInfo == nil { valid = false }
        }
        let ttl = integer(view, "ttlSeconds", in: 1...86_400)
        if view.has("ttlSeconds") && ttl == nil { valid = false }
        let period = integer(view, "publishPeriodDWs", in: 1...64)
        if view.has("publishPeriodDWs") && period == nil { valid = false }
        let rangeLimited = bool(view, "rangeLimited")
        if view.has("rangeLimited") && rangeLimited == nil { valid = false }
        var datapath: DatapathSettings?
        if let node = view["datapath"] {
            datapath = readDatapath(node, at: view.path("datapath"))
            if datapath == nil { valid = false }
        }
        guard valid, let name, let publishType else { return (nil, instanceId) }
        let service = ServiceProfile(
            name: name,
            instanceId: instanceId ?? 0,
            publishType: publishType,
            matchFilter: matchFilter,
            serviceInfo: serviceInfo,
            ttlSeconds: ttl,
            rangeLimited: rangeLimited ?? false,
            datapath: datapath,
            publishPeriodDWs: period
        )
        return (service, instanceId)
    }

    private mutating func readServiceInfo(_ node: JSONValue, at path: String, offersPairing: Bool) -> ServiceInfo? {
        guard let view = object(node, at: path, allowed: ["txt", "text", "hex"], required: []) else { return nil }
        guard case .object(let all) = node, all.count == 1 else {
            report(path, node, "must hold exactly one of `txt`, `text` or `hex`")
            return nil
        }
        if offersPairing && (view.has("text") || view.has("hex")) {
            report(
                path,
                nil,
                "must be `txt` (or left out) when the profile offers pairing: the phone reads vendorName, modelName "
                    + "and pairingName from the TXT record"
            )
            return nil
        }
        if let node = view["txt"] {
            guard let entries = readTXT(node, at: view.path("txt")) else { return nil }
            return ServiceInfo(txt: entries)
        }
        if let node = view["text"] {
            guard let text = string(node, at: view.path("text"), minLength: 1, maxLength: 255) else { return nil }
            if text.utf8.count > 255 {
                report(view.path("text"), node, "is \(text.utf8.count) octets in UTF-8; service info holds at most 255")
                return nil
            }
            return ServiceInfo(text: text)
        }
        if let node = view["hex"] {
            guard let hex = string(node, at: view.path("hex"), maxLength: 510) else { return nil }
            guard !hex.isEmpty, hex.utf8.count % 2 == 0,
                hex.utf8.allSatisfy({ $0 < 0x80 && Character(Unicode.Scalar($0)).isHexDigit })
            else {
                report(view.path("hex"), node, "must be a non-empty, even number of hex digits")
                return nil
            }
            return ServiceInfo(hex: hex)
        }
        return nil
    }

    /// TXT extras: at most 16 keys of printable ASCII without `=` (RFC 6763 6.4), not the pairing
    /// keys, and (semantic, as DNS-SD compares keys without case) distinct ignoring case.
    private mutating func readTXT(_ node: JSONValue, at path: String) -> [String: String]? {
        guard let entries = members(node, at: path) else { return nil }
        var valid = true
        if entries.count > 16 {
            report(path, nil, "has \(entries.count) entries; at most 16 are allowed")
            valid = false
        }
        var result: [String: String] = [:]
        for (index, entry) in entries.enumerated() {
            let keyPath = ProfileReader.path(path, entry.key)
            let keyScalars = entry.key.unicodeScalars
            if keyScalars.isEmpty || keyScalars.count > 64
                || !keyScalars.allSatisfy({ $0.value >= 0x21 && $0.value <= 0x7E && $0 != "=" })
            {
                report(keyPath, nil, "a TXT key is 1-64 printable ASCII characters without spaces or `=`")
                valid = false
                continue
            }
            if let reserved = Self.reservedTXTKeys.first(where: { $0.lowercased() == entry.key.lowercased() }) {
                let rule = reserved == entry.key ? "" : " (TXT keys ignore case)"
                report(keyPath, nil, "`\(reserved)` comes from `device` and cannot be set here\(rule)")
                valid = false
                continue
            }
            if let first = entries[..<index].first(where: { $0.key.lowercased() == entry.key.lowercased() }) {
                report(keyPath, nil, "repeats the key `\(first.key)`: TXT keys ignore case")
                valid = false
                continue
            }
            if let value = txtValue(entry.value, at: keyPath) {
                result[entry.key] = value
            } else {
                valid = false
            }
        }
        return valid ? result : nil
    }

    private mutating func readDatapath(_ node: JSONValue, at path: String) -> DatapathSettings? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["port", "cipherSuites", "autoAccept", "allowOpen", "sharedKey"],
                required: []
            )
        else {
            return nil
        }
        var datapath = DatapathSettings()
        var valid = true
        if view.has("port") {
            datapath.port = integer(view, "port", in: 1...65_535)
            if datapath.port == nil { valid = false }
        }
        if view.has("cipherSuites") {
            if let suites = enumerationList(view, "cipherSuites", PairingCipherSuite.self) {
                datapath.cipherSuites = suites
            } else {
                valid = false
            }
        }
        if view.has("autoAccept") {
            if let value = bool(view, "autoAccept") { datapath.autoAccept = value } else { valid = false }
        }
        if view.has("allowOpen") {
            if let value = bool(view, "allowOpen") { datapath.allowOpen = value } else { valid = false }
        }
        if let node = view["sharedKey"] {
            if let key = readSharedKey(node, at: view.path("sharedKey")) {
                datapath.sharedKey = key
            } else {
                valid = false
            }
        }
        return valid ? datapath : nil
    }

    /// `sharedKey`: exactly one of `passphrase` (8-63 characters, as a WPA passphrase) and `pmk`
    /// (64 hex digits), and an optional `suite` (NCS-SK-128 or NCS-SK-256).
    private mutating func readSharedKey(_ node: JSONValue, at path: String) -> DatapathSharedKey? {
        guard let view = object(node, at: path, allowed: ["passphrase", "pmk", "suite"], required: []) else {
            return nil
        }
        var suite = DatapathSharedKey.Suite.sk128
        if view.has("suite") {
            guard let value = enumeration(view, "suite", DatapathSharedKey.Suite.self) else { return nil }
            suite = value
        }
        switch (view.has("passphrase"), view.has("pmk")) {
        case (true, false):
            guard let text = string(view, "passphrase") else { return nil }
            guard (8...63).contains(text.count) else {
                report(view.path("passphrase"), .string(text), "must be 8 to 63 characters, as a WPA passphrase")
                return nil
            }
            return DatapathSharedKey(secret: .passphrase(text), suite: suite)
        case (false, true):
            guard let text = string(view, "pmk") else { return nil }
            guard text.count == 64, let octets = HexString.decode(text) else {
                report(view.path("pmk"), .string(text), "must be 64 hex digits (a 32-octet PMK)")
                return nil
            }
            return DatapathSharedKey(secret: .pmk(octets), suite: suite)
        default:
            report(path, nil, "must have exactly one of passphrase and pmk")
            return nil
        }
    }
}
