import AwareCore
import AwareProtocol
import AwareWire
import Foundation

/// The PINs the runner's phones typed in one scenario, in order: what a test compares when the
/// accessory's display cannot be read (a device on a radio, one read by `--pin-command`).
/// Written on the scheduler's thread (a PIN read at once) or the test's (one read later).
final class PINLog: @unchecked Sendable {
    private let lock = NSLock()
    private var entries: [(phone: MACAddress, pin: String)] = []

    func append(_ pin: String, phone: MACAddress) { lock.withLock { entries.append((phone, pin)) } }

    func pins(for phone: MACAddress) -> [String] {
        lock.withLock { entries.filter { $0.phone == phone }.map(\.pin) }
    }
}

extension Scenario {
    // MARK: - The PIN

    /// How `phone` gets the PIN for a pairing with `result` (``OperatorAccess/pin``). What it
    /// reads goes through `transform` (a test's wrong PIN) before it is typed.
    func pinSupply(
        phone: Phone,
        transform: @escaping @Sendable (String) -> String
    ) -> PhonePairing.PINSupply {
        let session = self.session
        let log = pinLog
        let address = phone.address
        let label = context.capabilities.profile?.pin?.fixed
        // A person reading the display or a label takes their time (typesAtHumanSpeed).
        if typesAtHumanSpeed { return .later }
        switch operatorAccess.pin {
        case .given(let pin):
            return .now {
                log.append(pin, phone: address)
                return transform(pin)
            }
        case .display where !operatorAccess.prompts:
            return .now {
                guard let read = session.displayedPINs(for: address).last ?? label else { return nil }
                log.append(read, phone: address)
                return transform(read)
            }
        case .display, .command:
            return .later
        }
    }

    /// Reads the PIN a ``PhonePairing/PINSupply/later`` attempt of `phone` waits for, on the
    /// test's thread, and enters it: the display (given a moment to arrive on the side channel),
    /// the profile's label, a person at the terminal, or the operator's command. A command that
    /// fails or prints no PIN ends the attempt before frame 1 and throws (the test's verdict is
    /// an error, not a failure of the accessory).
    func enterPIN(
        phone: Phone,
        result: DiscoveryResult,
        transform: @escaping @Sendable (String) -> String,
        atOnce: Bool = false
    ) throws {
        if !atOnce { typePINAtHumanSpeed() }
        do {
            let pin = try context.waitingForOperator { try readPIN(phone: phone, result: result) }
            pinLog.append(pin, phone: phone.address)
            let typed = transform(pin)
            withPhone { _ in phone.pairing.enterPIN(typed) }
        } catch let error as OperatorCommandError {
            withPhone { _ in phone.pairing.enterPIN(nil, unavailable: error.description) }
            context.log("pin_unavailable", ["message": .string(error.description)])
            throw error
        }
    }

    /// Whether the phone's person takes a human time over the PIN (``PhoneProfile/PINEntry``):
    /// when the runner reads it itself, from the display or `--pin`. A PIN command or a person at
    /// the terminal already takes real time of their own.
    var typesAtHumanSpeed: Bool {
        guard case .human = context.phone.pinEntry, !operatorAccess.prompts else { return false }
        if case .command = operatorAccess.pin { return false }
        return true
    }

    /// Lets the time pass that the person takes from the PIN appearing to the phone sending
    /// PASN frame 1: drawn from the phone profile's range with the test's seed, virtual time on
    /// the simulated air (it does not count against the test's budget) and real time elsewhere.
    func typePINAtHumanSpeed() {
        guard typesAtHumanSpeed, case .human(let range) = context.phone.pinEntry else { return }
        personTakes(seconds: Int64(Int.random(in: range, using: &person)))
    }

    /// Lets `seconds` pass as the person's time over the PIN, and logs it. It is not the
    /// accessory's time: it counts against neither the test's budget nor its wall-clock guard.
    func personTakes(seconds: Int64) {
        context.log("pin_entry_time", ["seconds": .integer(seconds)])
        context.waitingForPerson(.seconds(seconds)) { pass(.seconds(seconds)) }
    }

    private func readPIN(phone: Phone, result: DiscoveryResult) throws -> String {
        let address = phone.address
        let length = context.capabilities.profile?.pin?.length
        switch operatorAccess.pin {
        case .given(let pin):
            return pin
        case .command(let command):
            let environment = OperatorAccess.environment(
                accessory: result.publisherAddress.description,
                phone: address.description,
                service: result.serviceName,
                test: context.id
            )
            return try command.readPIN(environment: environment, length: length)
        case .display:
            // accessory-emu's display reaches the side channel a moment after its answer.
            _ = session.run(until: { !self.session.displayedPINs(for: address).isEmpty }, timeout: .seconds(1))
            if let shown = session.displayedPINs(for: address).last { return shown }
            if let label = context.capabilities.profile?.pin?.fixed { return label }
            while true {
                guard
                    let typed = OperatorPrompt.ask(
                        "\(context.id): the accessory \(result.publisherAddress) (\(result.serviceName)) shows a PIN "
                            + "for phone \(address). Type it, then Enter:"
                    )
                else {
                    throw OperatorCommandError(
                        option: "the PIN prompt",
                        command: "standard input",
                        failure: .unusableOutput("ended before a PIN was typed")
                    )
                }
                let pin = typed.trimmingCharacters(in: .whitespaces)
                guard let problem = PINInput.problem(with: pin, length: length) else { return pin }
                FileHandle.standardError.write(Data("aware-conform: that \(problem); try again\n".utf8))
            }
        }
    }

    /// The PINs this scenario's `phone` was shown: the display's where the runner reads it,
    /// otherwise those it typed (one per attempt the accessory accepted for PIN entry).
    func pinsShown(for phone: MACAddress) -> [String] {
        let displayed = session.displayedPINs(for: phone)
        return displayed.isEmpty ? pinLog.pins(for: phone) : displayed
    }

    /// The PINs shown to the scenario's phone under every NMI it used.
    var pinsShownToPhone: [String] { phoneAddresses.flatMap { pinsShown(for: $0) } }

    // MARK: - The phone's PIN, on the accessory (the reverse role)

    /// Whether the PIN a publishing phone shows can be entered on the accessory: by the runner
    /// where it drives the accessory, by the operator's `--enter-pin-command`, or by a person at
    /// the terminal.
    var canEnterPINOnAccessory: Bool {
        session.entersPINOnAccessory || operatorAccess.enterPIN != nil || operatorAccess.prompts
    }

    /// Enters `pin` (the publishing phone shows it) on the accessory, as the person would after
    /// reading it: the runner takes the phone profile's human time and types it through the
    /// target (the accessory takes it once the phone's Accepted has reached it, a moment after
    /// the phone sent it); for a device it does not drive, the operator's command types it, or a
    /// person at the terminal is asked to. Returns whether the accessory took it (a command or
    /// a person is taken at their word; a failed command throws).
    @discardableResult
    func enterPINOnAccessory(_ pin: String) throws -> Bool {
        if !session.entersPINOnAccessory, let command = operatorAccess.enterPIN {
            var environment = OperatorAccess.environment(
                accessory: accessoryAddress?.description,
                phone: phone.address.description,
                service: context.capabilities.profile?.subscriptions.first?.name,
                test: context.id
            )
            environment["AWARE_PIN"] = pin
            // The accessory asks for the PIN once the phone's Accepted has reached it: half a second.
            pass(.milliseconds(500))
            context.log("operator_command", ["option": .string(command.option)])
            try context.waitingForOperator { _ = try command.run(environment: environment) }
            return true
        }
        guard session.entersPINOnAccessory else {
            let question =
                "the phone shows PIN \(pin): type it on the accessory (it asked to pair with the phone), "
                + "then press Enter:"
            context.log("operator_prompt", ["question": .string("type the phone's PIN on the accessory")])
            try context.waitingForOperator {
                guard OperatorPrompt.ask("\(context.id): \(question)") != nil else {
                    throw EnvironmentFailure("standard input ended at the operator's prompt")
                }
            }
            return true
        }
        if case .human(let range) = context.phone.pinEntry {
            personTakes(seconds: Int64(Int.random(in: range, using: &person)))
        }
        for _ in 0..<20 {
            if (try? session.enterPINOnAccessory(pin)) != nil {
                context.log("accessory_pin_entered", [:])
                return true
            }
            pass(.milliseconds(250))
        }
        context.log("accessory_pin_not_taken", [:])
        return false
    }

    // MARK: - Power and reset

    /// A power cycle: through the target where it drives the accessory (accessory-emu, a control
    /// socket), else the operator's `--reboot-command` or a person at the terminal; then the
    /// runner waits for the accessory to publish again.
    func restartAccessory(newAddress: MACAddress?) throws {
        if let command = operatorAccess.reboot {
            try operatorCycle(command, newAddress: newAddress)
        } else if operatorAccess.prompts {
            try operatorPrompt("power-cycle the accessory (it keeps its pairings), then press Enter:")
        } else {
            try session.restartAccessory(newAddress: newAddress)
        }
    }

    /// The factory reset, the same three ways.
    func factoryResetAccessory() throws {
        if let command = operatorAccess.reset {
            try operatorCycle(command, newAddress: nil)
        } else if operatorAccess.prompts {
            try operatorPrompt("factory-reset the accessory (it forgets every pairing), then press Enter:")
        } else {
            try session.factoryResetAccessory()
        }
    }

    private func operatorCycle(_ command: OperatorCommand, newAddress: MACAddress?) throws {
        let environment = OperatorAccess.environment(
            accessory: accessoryAddress?.description,
            phone: phone.address.description,
            service: context.capabilities.profile?.services.first?.name,
            test: context.id,
            requestedAddress: newAddress?.description
        )
        context.log("operator_command", ["option": .string(command.option)])
        try context.waitingForOperator {
            _ = try command.run(environment: environment)
            try awaitPublish(after: command.option)
        }
    }

    private func operatorPrompt(_ question: String) throws {
        context.log("operator_prompt", ["question": .string(question)])
        try context.waitingForOperator {
            guard OperatorPrompt.ask("\(context.id): \(question)") != nil else {
                throw EnvironmentFailure("standard input ended at the operator's prompt")
            }
            try awaitPublish(after: "the operator's prompt")
        }
    }

    /// Subscribes afresh to the profile's services and waits until the accessory publishes one
    /// (it rebooted: nothing heard before counts).
    private func awaitPublish(after what: String) throws {
        let services = context.capabilities.profile?.services.map(\.name) ?? []
        guard !services.isEmpty else { return }
        var before = 0
        withPhone { phone in
            for service in services {
                if let instance = phone.subscribeInstances[service] {
                    phone.device.perform(.cancelSubscribe(instanceID: instance))
                }
            }
            before = phone.results.count
            for service in services { phone.subscribe(SubscribeConfiguration(serviceName: service, mode: .active)) }
        }
        let seconds = operatorAccess.rediscoverySeconds
        let back = session.run(
            until: { self.phone.results.dropFirst(before).contains { $0.matched } },
            timeout: .milliseconds(Int64(seconds * 1000))
        )
        guard back else {
            throw EnvironmentFailure(
                "the accessory did not publish \(services.joined(separator: " or ")) within "
                    + "\(OperatorCommandError.seconds(seconds)) s after \(what)"
            )
        }
        context.log("accessory_back", ["after": .string(what)])
    }
}
