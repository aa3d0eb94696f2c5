import AwareCore
import AwareWire

extension ProfileReader {
    mutating func readPerformance(_ node: JSONValue, at path: String) -> PerformanceSettings? {
        guard let view = object(node, at: path, allowed: ["default", "bulk", "realtime"], required: []) else {
            return nil
        }
        var valid = true
        if !view.has("bulk") && !view.has("realtime") {
            report(path, nil, "must configure `bulk`, `realtime` or both")
            valid = false
        }
        var bulk: BulkMode?
        if let node = view["bulk"] {
            if let modeView = object(
                node,
                at: view.path("bulk"),
                allowed: ["serviceClass", "targetThroughputMbps", "minThroughputMbps"],
                required: []
            ) {
                var mode = BulkMode()
                if let value = enumeration(modeView, "serviceClass", ServiceClass.self) {
                    mode.serviceClass = value
                } else if modeView.has("serviceClass") {
                    valid = false
                }
                mode.targetThroughputMbps = positiveNumber(modeView, "targetThroughputMbps", maximum: 10_000)
                if modeView.has("targetThroughputMbps") && mode.targetThroughputMbps == nil { valid = false }
                mode.minThroughputMbps = positiveNumber(modeView, "minThroughputMbps", maximum: 10_000)
                if modeView.has("minThroughputMbps") && mode.minThroughputMbps == nil { valid = false }
                bulk = mode
            } else {
                valid = false
            }
        }
        var realtime: RealtimeMode?
        if let node = view["realtime"] {
            if let modeView = object(
                node,
                at: view.path("realtime"),
                allowed: ["serviceClass", "maxLatencyMs"],
                required: []
            ) {
                var mode = RealtimeMode()
                if let value = enumeration(modeView, "serviceClass", ServiceClass.self) {
                    mode.serviceClass = value
                } else if modeView.has("serviceClass") {
                    valid = false
                }
                mode.maxLatencyMs = positiveNumber(modeView, "maxLatencyMs", maximum: 10_000)
                if modeView.has("maxLatencyMs") && mode.maxLatencyMs == nil { valid = false }
                realtime = mode
            } else {
                valid = false
            }
        }
        var defaultMode: PerformanceMode = view.has("bulk") ? .bulk : .realtime
        if view.has("default") {
            if let mode = enumeration(view, "default", PerformanceMode.self) {
                defaultMode = mode
                if !view.has(mode.rawValue) {
                    report(
                        view.path("default"),
                        view["default"],
                        "names a mode that is not configured: add `\(path).\(mode.rawValue)`"
                    )
                    valid = false
                }
            } else {
                valid = false
            }
        }
        guard valid else { return nil }
        return PerformanceSettings(defaultMode: defaultMode, bulk: bulk, realtime: realtime)
    }

    mutating func readApp(_ node: JSONValue, at path: String, serviceNames names: [String]) -> AppProfile? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["telemetry", "fileService", "audioStream", "control", "benchProtocol"],
                required: []
            )
        else { return nil }
        if case .object(let members) = node, members.isEmpty {
            report(
                path,
                node,
                "must configure at least one of `telemetry`, `fileService`, `audioStream`, `control`, `benchProtocol`"
            )
            return nil
        }
        var app = AppProfile()
        var valid = true
        if view.has("benchProtocol") {
            if let value = bool(view, "benchProtocol") { app.benchProtocol = value } else { valid = false }
        }
        if let node = view["telemetry"] {
            app.telemetry = readTelemetry(node, at: view.path("telemetry"), names: names)
            if app.telemetry == nil { valid = false }
        }
        if let node = view["fileService"] {
            app.fileService = readFileService(node, at: view.path("fileService"), names: names)
            if app.fileService == nil { valid = false }
        }
        if let node = view["audioStream"] {
            app.audioStream = readAudioStream(node, at: view.path("audioStream"), names: names)
            if app.audioStream == nil { valid = false }
        }
        if let node = view["control"] {
            if let partView = object(
                node,
                at: view.path("control"),
                allowed: ["service", "port"],
                required: ["service"]
            ) {
                let service = appService(partView, names: names)
                let port = integer(partView, "port", in: 1...65_535)
                if let service, partView.has("port") == (port != nil) {
                    app.control = ControlApp(service: service, port: port)
                } else {
                    valid = false
                }
            } else {
                valid = false
            }
        }
        return valid ? app : nil
    }

    /// The service an app part runs on: a valid service name (schema) that one of `services`
    /// publishes (semantic).
    private mutating func appService(_ view: ObjectView, names: [String]) -> String? {
        guard let name = string(view, "service") else { return nil }
        do {
            _ = try ServiceName(name)
        } catch {
            report(view.path("service"), view["service"], error.description)
            return nil
        }
        guard names.contains(name) else {
            report(view.path("service"), view["service"], "is not one of the services this profile publishes")
            return nil
        }
        return name
    }

    private mutating func readTelemetry(_ node: JSONValue, at path: String, names: [String]) -> TelemetryApp? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["service", "port", "rateHz", "payloadBytes"],
                required: ["service", "rateHz", "payloadBytes"]
            )
        else { return nil }
        let service = appService(view, names: names)
        let port = integer(view, "port", in: 1...65_535)
        let rate = positiveNumber(view, "rateHz", maximum: 1000)
        let payload = integer(view, "payloadBytes", in: 1...65_507)
        guard let service, let rate, let payload, view.has("port") == (port != nil) else { return nil }
        return TelemetryApp(service: service, port: port, rateHz: rate, payloadBytes: payload)
    }

    private mutating func readFileService(_ node: JSONValue, at path: String, names: [String]) -> FileServiceApp? {
        guard
            let view = object(node, at: path, allowed: ["service", "port", "files"], required: ["service", "files"])
        else { return nil }
        let service = appService(view, names: names)
        let port = integer(view, "port", in: 1...65_535)
        var files: [FileServiceApp.File] = []
        var valid = view.has("port") == (port != nil)
        if let items = array(view, "files", minItems: 1) {
            for (index, item) in items.enumerated() {
                let itemPath = ProfileReader.path(view.path("files"), index: index)
                guard
                    let fileView = object(
                        item,
                        at: itemPath,
                        allowed: ["name", "sizeBytes"],
                        required: ["name", "sizeBytes"]
                    )
                else {
                    valid = false
                    continue
                }
                let name = string(fileView, "name", minLength: 1, maxLength: 255)
                let size = integer(fileView, "sizeBytes", in: 0...1_099_511_627_776)
                if let name, let size {
                    files.append(FileServiceApp.File(name: name, sizeBytes: size))
                } else {
                    valid = false
                }
            }
        } else {
            valid = false
        }
        guard valid, let service else { return nil }
        return FileServiceApp(service: service, port: port, files: files)
    }

    private mutating func readAudioStream(_ node: JSONValue, at path: String, names: [String]) -> AudioStreamApp? {
        guard
            let view = object(
                node,
                at: path,
                allowed: ["service", "port", "sampleRateHz", "channels", "frameMs"],
                required: ["service", "sampleRateHz", "channels"]
            )
        else { return nil }
        let service = appService(view, names: names)
        let port = integer(view, "port", in: 1...65_535)
        var rate: Int?
        if let node = view["sampleRateHz"] {
            if let value = node.integerValue.flatMap({ Int(exactly: $0) }),
                [16_000, 44_100, 48_000, 96_000].contains(value)
            {
                rate = value
            } else {
                report(view.path("sampleRateHz"), node, "must be one of 16000, 44100, 48000, 96000")
            }
        }
        let channels = integer(view, "channels", in: 1...8)
        let frame = integer(view, "frameMs", in: 1...100)
        guard let service, let rate, let channels, view.has("port") == (port != nil),
            view.has("frameMs") == (frame != nil)
        else { return nil }
        return AudioStreamApp(
            service: service,
            port: port,
            sampleRateHz: rate,
            channels: channels,
            frameMs: frame ?? 10
        )
    }
}
