/// How an `mqtt` message's QoS and retain flag sit in a spool record's two option bytes: QoS
/// in the first, retain in the second, the layout the spool had when only this sink used it, so
/// a spool an older `daq` left still reads.
enum MQTTSpoolOptions {
    static func encode(qos: MQTTQoS, retain: Bool) -> UInt16 {
        UInt16(qos.rawValue) << 8 | (retain ? 1 : 0)
    }

    /// The QoS and retain flag, or `nil` when the first byte is no QoS (a damaged record).
    static func decode(_ options: UInt16) -> (qos: MQTTQoS, retain: Bool)? {
        guard let qos = MQTTQoS(rawValue: UInt8(options >> 8)) else { return nil }
        return (qos, options & 0xFF == 1)
    }
}
