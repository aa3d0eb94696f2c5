import AccessoryKit
import AwareCore
import AwareRadio
import AwareWire
import FuzzSupport

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One accessory (discovery engine, bootstrapping and PASN responders, NDP responder, the
/// firmware around them) on a ``MemoryAir``, fed the frames of a ``FrameSequence`` under
/// virtual time, with the properties that hold whatever the frames checked after each one.
///
/// Setup bit 0 runs unsynchronized discovery instead of joining or forming a cluster; bit 1
/// takes the camera profile instead of the drone.
final class AccessoryHarness {
    /// Virtual time one input may cover; pauses beyond it are cut short.
    static let virtualTimeLimit = Interval.seconds(Int64(90))
    /// Work items one input may run. A minute and a half of discovery windows, beacons and
    /// retransmissions take a few tens of thousands; more means work that re-arms itself.
    static let workLimit = 1_000_000
    /// Scheduled work waiting at once; more means timers that pile up instead of replacing
    /// each other.
    static let pendingWorkLimit = 4_096

    let air = MemoryAir()
    let profile: AccessoryProfile
    let accessory: Accessory
    private var ledger: PASNLedger
    /// Phones the accessory showed a PIN for.
    private var pinShownTo: Set<MACAddress> = []
    /// Phones that completed a pairing or verification, by the accessory's events.
    private var established: Set<MACAddress> = []
    private var workDone = 0
    /// `AWAREBENCH_FUZZ_TRACE=1`: print the accessory's events, to see how far an input gets.
    private let tracing = getenv("AWAREBENCH_FUZZ_TRACE") != nil
    /// Every frame the accessory sent, when ``keepsSentFrames`` (seeds are built from them).
    var keepsSentFrames = false
    private(set) var sentFrames: [[UInt8]] = []
    /// The latest PIN the accessory showed, and the phone that pairs with it honestly
    /// (FrameSequence flag bit 1).
    private var lastDisplay: PINDisplay?
    private var honestPhone: HonestPhone?

    init(setup: UInt8) {
        profile = setup & 0x02 == 0 ? HarnessProfiles.drone : HarnessProfiles.camera
        accessory = Accessory(
            profile: profile,
            air: air,
            options: AccessoryOptions(seed: 1, unsynchronized: setup & 0x01 != 0, pinSource: .seeded)
        )
        ledger = PASNLedger(accessory: accessory.address)
        air.transmitHandler = { [unowned self] request in
            ledger.sent(request.frame)
            if keepsSentFrames { sentFrames.append(request.frame) }
            answerAsHonestPhone(request.frame)
        }
        accessory.pinDisplayHandler = { [unowned self] display in
            pinShownTo.insert(display.peer)
            lastDisplay = display
        }
        accessory.eventHandler = { [unowned self] event in observe(event) }
    }

    func run(_ sequence: FrameSequence) {
        do {
            try accessory.start()
        } catch {
            fuzzFailure("the accessory does not start: \(error)")
        }
        for record in sequence.records {
            advance(by: Interval(nanoseconds: record.pauseNanoseconds))
            if record.startsHonestPairing {
                startHonestPairing()
                checkState()
                continue
            }
            var frame = record.frame
            if record.addressesHarnessStation, frame.count >= 10 {
                frame.replaceSubrange(4..<10, with: accessory.address.octets)
            }
            deliver(frame)
            checkState()
        }
        // Long enough for comebacks, PASN and NDP timeouts and retransmissions to fire.
        advance(by: .seconds(Int64(3)))
        checkState()
        accessory.stop()
    }

    private func deliver(_ frame: [UInt8]) {
        ledger.received(frame)
        air.deliver(frame)
    }

    /// The phone the accessory last showed a PIN to sends PASN frame 1 with that PIN.
    private func startHonestPairing() {
        guard let display = lastDisplay else { return }
        var phone = HonestPhone(address: display.peer, accessory: accessory.address, pin: display.pin.digits)
        let frame1 = phone.start(now: air.scheduler.now)
        honestPhone = phone
        if let frame1 { deliver(frame1) }
    }

    /// The honest phone's answer to a frame the accessory sent it, one millisecond later (on
    /// the scheduler, not inside the accessory's transmit).
    private func answerAsHonestPhone(_ frame: [UInt8]) {
        guard var phone = honestPhone, frame.count >= 10, MACAddress(frame[4..<10]) == phone.address else { return }
        let now = air.scheduler.now
        guard let reply = phone.answer(frame, now: now) else { return }
        honestPhone = phone
        air.scheduler.schedule(after: .milliseconds(1)) { [unowned self] in deliver(reply) }
    }

    /// Runs the scheduler to `interval` from now, within the input's time and work budgets.
    private func advance(by interval: Interval) {
        let scheduler = air.virtualScheduler
        let end = min(scheduler.now + interval, Instant.zero + Self.virtualTimeLimit)
        while let next = scheduler.nextEventTime, next <= end {
            scheduler.step()
            workDone += 1
            if workDone > Self.workLimit {
                fuzzFailure("more than \(Self.workLimit) work items in \(scheduler.now): work that re-arms itself")
            }
        }
        scheduler.run(until: end)
    }

    private func observe(_ event: AccessoryEvent) {
        if tracing { print("\(event.time) \(event.name): \(event.text)") }
        guard event.name == "paired" || event.name == "reconnected" else { return }
        guard let peer = Self.peer(of: event) else { fuzzFailure("\(event.name) without a peer: \(event.text)") }
        guard ledger.exchangeCompleted(with: peer) else {
            fuzzFailure("\(event.name) with \(peer) without PASN frames 1, 2 (success) and 3 on the air")
        }
        if event.name == "paired", !pinShownTo.contains(peer) {
            fuzzFailure("paired with \(peer) without showing it a PIN")
        }
        if event.name == "reconnected", established.isEmpty {
            fuzzFailure("\(peer) reconnected to an accessory that never paired")
        }
        established.insert(peer)
    }

    /// Bounded state, and no keys or data paths that a pairing did not give.
    private func checkState() {
        let pending = air.virtualScheduler.pendingCount
        if pending > Self.pendingWorkLimit { fuzzFailure("\(pending) pieces of work scheduled at once") }
        let paired = accessory.pairedPeers
        let limit = profile.pairing?.maxPairedDevices ?? 0
        if paired.count > limit { fuzzFailure("\(paired.count) paired devices, the profile allows \(limit)") }
        for record in paired where !established.contains(record.peerNMI) {
            fuzzFailure("a pairing record for \(record.peerNMI), which never completed a pairing")
        }
        let datapaths = profile.services.compactMap(\.datapath)
        let openAllowed = datapaths.contains(where: \.allowOpen)
        let keysOnlyFromPairing = datapaths.allSatisfy { $0.sharedKey == nil }
        for link in accessory.dataPaths {
            if link.security == nil, !openAllowed { fuzzFailure("an open \(link.id), which no service allows") }
            if link.security != nil, keysOnlyFromPairing, !established.contains(link.peerNMI) {
                fuzzFailure("a secured \(link.id) with a peer that never paired")
            }
        }
    }

    private static func peer(of event: AccessoryEvent) -> MACAddress? {
        for (key, value) in event.fields where key == "peer" {
            if case .string(let text) = value { return MACAddress(string: text) }
        }
        return nil
    }
}
