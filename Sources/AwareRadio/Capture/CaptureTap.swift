import AwareCore
import AwareWire
import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A sniffer on an air: it keeps every frame the air carries as a ``CaptureRecord`` with a
/// radiotap header and writes them as pcap or pcapng.
///
/// The radiotap header holds TSFT (the air's time in µs: virtual time on the simulated
/// air), Flags (0: frames are kept without FCS), Rate, Channel (frequency, OFDM and band
/// flags) and dBm Antenna Signal (what the air says the tap measured). Record timestamps are
/// ``epochNanoseconds`` plus the air's time, so two runs of a simulation from the same seed
/// write the same octets. Works with any ``Air``: it is just an ``AirTap``.
public final class CaptureTap: AirTap {
    /// 2026-01-01T00:00:00Z in nanoseconds since the Unix epoch: 20 454 days × 86 400 s.
    public static let defaultEpochNanoseconds: UInt64 = 1_767_225_600 * 1_000_000_000

    /// The file ``write()`` replaces, if any.
    public let path: String?
    public let format: CaptureFormat
    /// Added to the air's time to make a record's wall-clock timestamp.
    public let epochNanoseconds: UInt64
    /// The rate radiotap reports for frames sent at the air's default rate.
    public var rate: OFDMRate
    public private(set) var records: [CaptureRecord] = []

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

    /// A tap that writes to `path`, in `format` or the one its extension names. Fails at once
    /// when the format is unknown or the file cannot be written there.
    public init(
        path: String,
        format: CaptureFormat? = nil,
        epochNanoseconds: UInt64 = CaptureTap.defaultEpochNanoseconds,
        rate: OFDMRate = .mbps6
    ) throws(CaptureTapError) {
        guard let resolved = format ?? CaptureFormat(path: path) else { throw .unknownFormat(path: path) }
        if let problem = AtomicFile.problem(writing: path) { throw .unwritable(path: path, reason: problem) }
        self.path = path
        self.format = resolved
        self.epochNanoseconds = epochNanoseconds
        self.rate = rate
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
        records.append(
            CaptureRecord(
                timestamp: epochNanoseconds &+ time.nanoseconds,
                linkType: .ieee80211Radiotap,
                radiotap: radiotap,
                frame: frame
            )
        )
    }

    /// The capture file's octets in the tap's format.
    public var bytes: [UInt8] { bytes(in: format) }

    public func bytes(in format: CaptureFormat) -> [UInt8] {
        switch format {
        case .pcap: PcapFile(linkType: .ieee80211Radiotap, records: records).bytes
        case .pcapng: PcapngFile(records: records).bytes
        }
    }

    /// Replaces the tap's file with everything captured so far, atomically.
    public func write() throws(CaptureTapError) {
        guard let path else { throw .noPath }
        do {
            try AtomicFile.write(bytes, to: path)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
    }

    /// Writes everything captured so far to `path`, atomically, in `format` or the one its
    /// extension names.
    public func write(to path: String, format: CaptureFormat? = nil) throws(CaptureTapError) {
        guard let resolved = format ?? CaptureFormat(path: path) else { throw .unknownFormat(path: path) }
        if let problem = AtomicFile.problem(writing: path) { throw .unwritable(path: path, reason: problem) }
        do {
            try AtomicFile.write(bytes(in: resolved), to: path)
        } catch {
            throw .unwritable(path: path, reason: error.reason)
        }
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
}

// MARK: - CaptureTapError

/// Why a capture could not be set up or written.
public enum CaptureTapError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file name ends in neither `.pcap` nor `.pcapng` and no format was given.
    case unknownFormat(path: String)
    /// The file cannot be written there; `reason` says why.
    case unwritable(path: String, reason: String)
    /// ``CaptureTap/write()`` on a tap made without a path.
    case noPath

    public var description: String {
        switch self {
        case .unknownFormat(let path):
            "cannot tell the capture format of \(path): name it .pcap or .pcapng"
        case .unwritable(let path, let reason):
            "cannot write the capture \(path): \(reason)"
        case .noPath:
            "this capture tap has no file to write: give it a path"
        }
    }
}
