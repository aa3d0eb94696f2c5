import AwareCore
import AwareWire

/// What an NDP machine asks its owner to do, in order.
public enum NDPAction: Hashable, Sendable {
    /// A whole 802.11 MPDU carrying a NAF, unprotected. The device edge applies category-9
    /// protection for paired peers; the machine already wrote the category it was configured
    /// with, because the Key MICs cover the category octet (nan-wire-reference.md 4.2).
    case transmit([UInt8])
    case arm(NDPTimer, at: Instant)
    case cancel(NDPTimer)
    case established(NDPLink)
    case failed(NDPFailure)
    case terminated(NDPLink.ID, reason: NANReasonCode, byPeer: Bool)
}
