import AwareProtocol

/// One NAN data path of a device: the peer's NMI and the NDP ID the initiator chose
/// (nan-wire-reference.md 2.10). Two phones may both use NDP ID 1; the pair tells them apart.
public typealias DataLinkID = NDPLink.ID
