import AwareCore
import AwareProtocol
import AwareWire

extension ControlRequest {
    /// The request `command` names, from the object's other members.
    init(command: String, fields: inout ControlFields) throws(ControlRequestError) {
        switch command {
        case "status": self = .status
        case "paired-devices": self = .pairedDevices
        case "reboot":
            let nmi: MACAddress?
            if let text = try fields.optionalString("nmi") {
                guard let address = MACAddress(string: text), !address.isGroup else {
                    throw .invalidValue(
                        command: command,
                        field: "nmi",
                        reason: "must be an individual MAC address like 02:a0:00:00:00:01, not \"\(text.prefix(40))\""
                    )
                }
                nmi = address
            } else {
                nmi = nil
            }
            let off = try fields.number("offSeconds", in: 0...Self.maximumOffSeconds, default: 0)
            self = .reboot(nmi: nmi, offSeconds: off)
        case "factory-reset": self = .factoryReset
        case "set-faults":
            var faults: [AccessoryFault] = []
            for name in try fields.stringList("faults") {
                guard let fault = AccessoryFault(rawValue: name) else {
                    throw .invalidValue(
                        command: command,
                        field: "faults",
                        reason: "names an unknown fault \"\(name.prefix(40))\" (accessory-emu --help lists them)"
                    )
                }
                if !faults.contains(fault) { faults.append(fault) }
            }
            self = .setFaults(faults)
        case "clear-faults": self = .clearFaults
        case "set-position":
            let limit = Self.maximumDistance
            let x = try fields.number("x", in: -limit...limit)
            let y = try fields.number("y", in: -limit...limit, default: 0)
            self = .setPosition(x: x, y: y)
        case "set-tx-power":
            self = .setTransmitPower(dBm: try fields.integer("dBm", in: Self.transmitPowerRange))
        case "update-service":
            let service = try fields.requiredString("service")
            self = .updateService(service: service, txt: try fields.stringMap("txt"))
        case "renegotiate-schedule":
            let mode: PerformanceMode?
            if let text = try fields.optionalString("mode") {
                guard let value = PerformanceMode(rawValue: text) else {
                    throw .invalidValue(
                        command: command,
                        field: "mode",
                        reason:
                            "must be \(PerformanceMode.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: " or ")), not \"\(text.prefix(40))\""
                    )
                }
                mode = value
            } else {
                mode = nil
            }
            self = .renegotiateSchedule(mode: mode)
        case "shutdown": self = .shutdown
        default: throw .unknownCommand(String(command.prefix(40)))
        }
    }
}
