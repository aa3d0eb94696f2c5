import AwareCore
import AwareWire

/// A sniffer on an air: it turns every frame the air carries into a ``CaptureRecord`` with a
/// radiotap header, and either keeps the records (a test's capture, bounded by the test) or
/// writes each to a pcap or pcapng file as it arrives (`--capture` of a run of hours).
///
/// The radiotap header holds TSFT (the air's time in µs: virtual time on the simulated
/// air), Flags (0: frames are kept without FCS), Rate, Channel (frequency, OFDM and band
/// flags) and dBm Antenna Signal (what the air says the tap measured). Record timestamps are
/// ``epochNanoseconds`` plus the air's time, so two runs of a simulation from the same seed
/// write the same octets. Works with any ``Air``: it is just an ``AirTap``, called on the
/// air's scheduler.
///
/// With a path, the file is written as frames arrive and nothing is kept: the file header when
/// the tap is made, then each record in one write, so the file is a valid capture of every
/// frame so far and a crash loses at most the frame being written. A write that fails (the disk
/// is full) stops the capture, leaves the file whole up to the last frame, and is reported
/// once, to ``failureHandler`` and by ``close()``; the air goes on.
public final class CaptureTap: AirTap {
    /// 2026-01-01T00:00:00Z in nanoseconds since the Unix epoch: 20 454 days × 86 400 s.
    public static let defaultEpochNanoseconds: UInt64 = 1_767_225_600 * 1_000_000_000

    /// The file the tap writes, if any.
    public let path: String?
    public let format: CaptureFormat
    /// Added to the air's time to make a record's wall-clock timestamp.
    public let epochNanoseconds: UInt64
    /// The rate radiotap reports for frames sent at the air's default rate.
    public var rate: OFDMRate
    /// The records of a tap without a path; a tap with one keeps none.
    public private(set) var records: [CaptureRecord] = []
    /// Frames captured: kept, or written whole to the file.
    public private(set) var frameCount = 0
    /// Why the file stopped growing, when a write failed.
    public private(set) var failure: CaptureTapError?
    /// Told once, on the air's scheduler, when a write fails and the capture stops.
    public var failureHandler: ((CaptureTapError) -> Void)?
    /// The file, while the capture goes on (internal: a test puts a full disk in its place).
    var file: AppendingFile?

    /// A tap that keeps records in memory; ``bytes`` gives the file's octets.
    public init(
        format: CaptureFormat = .pcapng,
        epochNanoseconds: UInt64 = CaptureTap.defaultEpochNanoseconds,
        rate: OFDMRate = .mbps6
    ) {
        path = nil
        self.format = format
        self.epochNanoseconds = epochNanoseconds
        self.rate = rate
    }

    /// A tap that writes to `path`, in `format` or the one its extension names: the file is
    /// created (or emptied) and its header written at once, so an unknown format or a file that
    /// cannot be written there fails here, not after the run.
    public init(
        path: String,
        format: CaptureFormat? = nil,
        epochNanoseconds: UInt64 = CaptureTap.defaultEpochNanoseconds,
        rate: OFDMRate = .mbps6
    ) throws(CaptureTapError) {
        guard let resolved = format ?? CaptureFormat(path: path) else { throw .unknownFormat(path: path) }
        self.path = path
        self.format = resolved
        self.epochNanoseconds = epochNanoseconds
        self.rate = rate
        do throws(AtomicFileError) {
            let file = try AppendingFile(path: path)
            try file.append(resolved.header)
            self.file = file
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    public func air(carried frame: [UInt8], on channel: NANChannel, signalDBm: Int, at time: Instant) {
        air(carried: frame, on: channel, signalDBm: signalDBm, rate: nil, at: time)
    }

    /// Records the frame with its own rate in radiotap's Rate field, or the tap's ``rate``
    /// when the sender left it to the air.
    public func air(
        carried frame: [UInt8],
        on channel: NANChannel,
        signalDBm: Int,
        rate frameRate: TxRate?,
        at time: Instant
    ) {
        let radiotap = Radiotap(
            tsft: time.nanoseconds / 1_000,
            flags: RadiotapFlags(rawValue: 0),
            rate: frameRate?.rawValue ?? rate.radiotapRate,
            channel: RadiotapChannel(ofdmAt: channel.frequencyMHz),
            antennaSignal: Int8(clamping: signalDBm)
        )
        let record = CaptureRecord(
            timestamp: epochNanoseconds &+ time.nanoseconds,
            linkType: .ieee80211Radiotap,
            radiotap: radiotap,
            frame: frame
        )
        guard let path else {
            records.append(record)
            frameCount += 1
            return
        }
        guard let file else { return }
        do throws(AtomicFileError) {
            try file.append(format.octets(of: record))
            frameCount += 1
        } catch {
            // Stop at the first failure: the file holds every frame before it, whole.
            let failure = CaptureTapError.stopped(path: path, frames: frameCount, reason: error.reason)
            self.failure = failure
            self.file = nil
            try? file.close()
            failureHandler?(failure)
        }
    }

    /// The capture file's octets in the tap's format, for a tap without a path.
    public var bytes: [UInt8] { bytes(in: format) }

    /// The octets a file of the kept records would hold: the same header and record octets a
    /// tap with a path writes as the frames arrive.
    public func bytes(in format: CaptureFormat) -> [UInt8] {
        var octets = format.header
        for record in records { octets += format.octets(of: record) }
        return octets
    }

    /// Ends the capture: flushes the file to storage and closes it. Throws why the capture
    /// stopped early, if it did, or why the file could not be flushed; the file holds every
    /// frame written before. Nothing to do for a tap without a path; later frames are dropped.
    public func close() throws(CaptureTapError) {
        guard let path else { return }
        if let file {
            self.file = nil
            do throws(AtomicFileError) {
                try file.close()
            } catch {
                let failure = CaptureTapError.stopped(path: path, frames: frameCount, reason: error.reason)
                self.failure = self.failure ?? failure
            }
        }
        if let failure { throw failure }
    }

    /// Forgets the records kept so far.
    public func removeAll() {
        records.removeAll()
    }
}

// MARK: - CaptureFormat

/// The container a ``CaptureTap`` writes.
public enum CaptureFormat: String, Hashable, Sendable, CaseIterable {
    /// Classic libpcap, link type 127 (radiotap), microsecond timestamps.
    case pcap
    /// pcapng with nanosecond timestamps.
    case pcapng

    /// The format a file name's extension names (`.pcap`, `.pcapng`, any case), or nil.
    public init?(path: String) {
        guard let dot = path.lastIndex(of: "."), !path[dot...].contains("/") else { return nil }
        self.init(rawValue: path[path.index(after: dot)...].lowercased())
    }

    /// The interface every record of a tap is on: radiotap with nanosecond timestamps. A tap
    /// only captures radiotap records, so one Interface Description Block written before the
    /// first record covers the whole file (pcapng lets IDBs come later, but a reader must see
    /// one before the packets that name it: draft-ietf-opsawg-pcapng, section 4.2).
    static let interface = PcapngInterface(linkType: .ieee80211Radiotap, timestampResolution: .nanoseconds)

    /// What a capture file starts with: the pcap file header, or pcapng's Section Header and
    /// Interface Description Blocks.
    var header: [UInt8] {
        switch self {
        case .pcap: PcapFile.header(linkType: .ieee80211Radiotap)
        case .pcapng: PcapngFile.header(interfaces: [Self.interface])
        }
    }

    /// One record: a pcap record, or a pcapng Enhanced Packet Block on interface 0.
    func octets(of record: CaptureRecord) -> [UInt8] {
        switch self {
        case .pcap: PcapFile.record(record, linkType: .ieee80211Radiotap)
        case .pcapng: PcapngFile.block(for: record, interfaceID: 0, interface: Self.interface)
        }
    }
}

// MARK: - CaptureTapError

/// Why a capture could not be set up or written.
public enum CaptureTapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name ends in neither `.pcap` nor `.pcapng` and no format was given.
    case unknownFormat(path: String)
    /// The file cannot be written there; `reason` says why.
    case unwritable(path: String, reason: String)
    /// A write failed after `frames` frames (the disk is full): the capture stopped there, and
    /// the file holds those frames.
    case stopped(path: String, frames: Int, reason: String)

    public var description: String {
        switch self {
        case .unknownFormat(let path):
            "cannot tell the capture format of \(path): name it .pcap or .pcapng"
        case .unwritable(let path, let reason):
            "cannot write the capture \(path): \(reason)"
        case .stopped(let path, let frames, let reason):
            "the capture \(path) stopped after \(frames) frame\(frames == 1 ? "" : "s"): \(reason) "
                + "(the file holds those frames)"
        }
    }
}
