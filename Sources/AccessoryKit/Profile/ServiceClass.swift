import AwareProtocol

/// The service class that selects a `WAAccessCategory` (apple-peer-model.md 1.7): the protocol
/// layer's type, with the access category it maps to.
public typealias ServiceClass = AwareProtocol.ServiceClass
