extension AccessoryProfile {
    /// A few lines saying who the accessory is and what it publishes, for `profile validate`.
    public var summaryLines: [String] {
        var lines: [String] = []
        var who = "device: \(device.vendorName) / \(device.modelName)"
        if let pairingName = device.pairingName { who += ", pairing name \"\(pairingName)\"" }
        lines.append(who)
        for service in services {
            var parts = ["instance \(service.instanceId)", Self.phrase(service.publishType)]
            if let filter = service.matchFilter { parts.append("filter \(filter)") }
            if let ttl = service.ttlSeconds { parts.append("for \(ttl) s") }
            if let datapath = service.datapath {
                parts.append("data path" + (datapath.port.map { " on port \($0)" } ?? ""))
            }
            lines.append("publishes \(service.name) (" + parts.joined(separator: ", ") + ")")
        }
        if let pairing {
            let methods = pairing.bootstrappingMethods.map(\.rawValue).joined(separator: ", ")
            let pin = pairing.pin.fixed.map { "fixed PIN \($0)" } ?? "random \(pairing.pin.length)-digit PIN"
            var cached: [String] = []
            if pairing.cache.npk { cached.append("NPK") }
            if pairing.cache.nik { cached.append("NIK") }
            let cache = cached.isEmpty ? "caches no keys" : "caches " + cached.joined(separator: " and ")
            lines.append(
                "pairing: \(methods); \(pin), \(pairing.pin.maxWrongAttempts) wrong attempts then "
                    + "\(pairing.pin.lockoutSeconds) s lockout; \(cache)"
            )
        } else {
            lines.append("pairing: not offered")
        }
        let modes = performance.supportedModes.map { mode in
            "\(mode.rawValue) (\(performance.serviceClass(for: mode)?.rawValue ?? "?"))"
        }
        lines.append("performance: " + modes.joined(separator: ", ") + "; default \(performance.defaultMode.rawValue)")
        if let app {
            if let telemetry = app.telemetry {
                lines.append(
                    "app: telemetry on \(telemetry.service), \(Self.number(telemetry.rateHz)) Hz x "
                        + "\(telemetry.payloadBytes) bytes"
                )
            }
            if let files = app.fileService {
                lines.append("app: file service on \(files.service), \(files.files.count) file(s)")
            }
            if let audio = app.audioStream {
                lines.append(
                    "app: audio stream on \(audio.service), \(audio.sampleRateHz) Hz, \(audio.channels) channel(s)"
                )
            }
            if let control = app.control { lines.append("app: control on \(control.service)") }
        }
        return lines
    }

    private static func phrase(_ type: PublishType) -> String {
        switch type {
        case .unsolicited: return "unsolicited"
        case .solicited: return "solicited"
        case .both: return "solicited + unsolicited"
        }
    }

    private static func number(_ value: Double) -> String {
        value.rounded() == value && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
