import AwareDevice

/// Records the MSDUs a device's data paths deliver, in order. A device holds its
/// ``NANDevice/dataReceiver`` weakly: the test keeps the recorder.
final class DataDeliveries: DataReceiver {
    private(set) var all: [DataDelivery] = []

    func receive(_ delivery: DataDelivery) { all.append(delivery) }
}
