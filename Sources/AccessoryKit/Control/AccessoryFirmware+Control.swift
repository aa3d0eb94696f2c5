import AwareCore
import AwareDevice
import AwareRadio
import AwareWire

extension AccessoryFirmware {
    /// Parses and carries out one control line; on the scheduler. Whatever the bytes, the
    /// answer is a reply, never a crash.
    public func perform(line: some Collection<UInt8>) -> ControlReply {
        let message: ControlLine
        do {
            message = try ControlLine.parse(line)
        } catch {
            return ControlReply(id: nil, command: nil, outcome: .failure(ControlFailure(error)))
        }
        return perform(message)
    }

    public func perform(_ message: ControlLine) -> ControlReply {
        let outcome = Result { () throws(ControlFailure) -> JSONValue in try result(of: message.request) }
        return ControlReply(id: message.id, command: message.request.commandName, outcome: outcome)
    }

    private func result(of request: ControlRequest) throws(ControlFailure) -> JSONValue {
        switch request {
        case .status:
            return status
        case .pairedDevices:
            return .object([("devices", .array(try pairedRecords().map(Self.describe)))])
        case .reboot(let nmi, let offSeconds):
            try reboot(newAddress: nmi, offSeconds: offSeconds)
            return bootSummary(offSeconds: offSeconds)
        case .factoryReset:
            let summary = try factoryReset()
            var members = bootMembers
            if let summary {
                members.append(("pairedDevicesRemoved", summary.pairedDevices.map { .integer(Int64($0)) } ?? .null))
                members.append(("identityRemoved", .bool(summary.removedIdentity)))
            }
            return .object(members)
        case .setFaults(let faults):
            try setFaults(Set(faults))
            return bootSummary(offSeconds: 0)
        case .clearFaults:
            try setFaults([])
            return bootSummary(offSeconds: 0)
        case .setPosition(let x, let y):
            return Self.describe(move(to: StationConfiguration.Position(x: x, y: y)))
        case .setTransmitPower(let dBm):
            return Self.describe(setTransmitPower(dBm: dBm))
        case .updateService(let service, let txt):
            guard accessory.publishedInstances[service] != nil else {
                let published = accessory.publishedInstances.keys.sorted().joined(separator: ", ")
                throw ControlFailure(
                    code: "unknown-service",
                    message: "update-service: \(service.prefix(80)) is not published (published: \(published))"
                )
            }
            accessory.updateServiceInfo(service: service, txt: txt)
            return .object([("service", .string(service))])
        case .renegotiateSchedule(let mode):
            let peers = accessory.renegotiateSchedules(mode: mode)
            return .object([
                ("mode", .string((mode ?? accessory.performanceMode).rawValue)),
                ("peers", .array(peers.map { .string($0.description) })),
            ])
        case .enterPIN(let pin):
            guard accessory.enterPIN(pin) else {
                throw ControlFailure(
                    code: "no-pin-wanted",
                    message: "enter-pin: no pairing waits for a PIN now (the event pin_requested says when one does)"
                )
            }
            return .object([("entered", .bool(true))])
        case .shutdown:
            requestShutdown()
            return .object([])
        }
    }

    /// Everything `status` reports: who, which boot, what it publishes, where it stands.
    public var status: JSONValue {
        var members = bootMembers
        members += [
            ("running", .bool(isRunning)),
            ("poweredOff", .bool(isPoweredOff)),
            ("uptimeSeconds", .double(isRunning ? (air.scheduler.now - bootedAt).seconds : 0)),
            ("vendorName", .string(profile.device.vendorName)),
            ("modelName", .string(profile.device.modelName)),
            ("pairingName", profile.device.pairingName.map { .string($0) } ?? .null),
            (
                "services",
                .array(
                    accessory.publishedInstances.sorted { $0.key < $1.key }.map {
                        .object([("name", .string($0.key)), ("instanceID", .unsigned(UInt64($0.value)))])
                    }
                )
            ),
            ("faults", .array(options.faults.map(\.rawValue).sorted().map { .string($0) })),
            ("mode", .string(accessory.performanceMode.rawValue)),
            ("pairedDevices", .integer(Int64((try? pairedRecords().count) ?? accessory.pairedPeers.count))),
            ("dataPaths", .integer(Int64(accessory.dataPaths.count))),
            ("position", .object([("x", .double(position.x)), ("y", .double(position.y))])),
            ("txPowerDBm", .integer(Int64(transmitPowerDBm))),
            ("link", Self.describe(linkBudget)),
        ]
        return .object(members)
    }

    private var bootMembers: [(String, JSONValue)] {
        [
            ("nmi", .string(accessory.address.description)),
            ("boot", options.boot.map { .integer(Int64($0)) } ?? .null),
        ]
    }

    private func bootSummary(offSeconds: Double) -> JSONValue {
        .object(
            bootMembers + [
                ("faults", .array(options.faults.map(\.rawValue).sorted().map { .string($0) })),
                ("offSeconds", .double(offSeconds)),
            ]
        )
    }

    /// The store's records when there is a store (what survives a reboot), else this boot's.
    private func pairedRecords() throws(ControlFailure) -> [PairingRecord] {
        guard let state else { return accessory.pairedPeers }
        do {
            return try state.pairingStore.load().peers
        } catch {
            throw ControlFailure(code: "state", message: "the pairing store cannot be read: \(error)")
        }
    }

    /// A paired phone as the control channel shows it: who and when, never a key.
    static func describe(_ record: PairingRecord) -> JSONValue {
        .object([
            ("nmi", .string(record.peerNMI.description)),
            ("pairedAt", .integer(record.pairedAt)),
            ("akm", .string(record.akm.rawValue)),
            ("cipherSuite", .unsigned(UInt64(record.cipherSuite))),
            ("hasNIK", .bool(record.peerNIK != nil)),
            ("nikLifetimeSeconds", .integer(Int64(record.nikLifetimeSeconds))),
            ("label", record.label.map { .string($0) } ?? .null),
        ])
    }

    static func describe(_ budget: AccessoryLinkBudget) -> JSONValue {
        .object([
            ("distance", .double(budget.distance)),
            ("txPowerDBm", .integer(Int64(budget.transmitPowerDBm))),
            ("rssiDBm", .integer(Int64(budget.rssiDBm))),
            ("inRange", .bool(budget.inRange)),
        ])
    }
}
