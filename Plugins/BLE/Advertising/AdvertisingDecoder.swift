import DAQCore

/// Decodes the advertising data of one report (a sequence of AD structures: length, type,
/// data) into fields, beacon frames included. A malformed structure adds an error naming its
/// byte offset and ends the walk at that point: a wrong length byte makes every later byte
/// meaningless, while everything before it is kept.
///
/// Field names: `flags`, `name`, `tx_power`, `services`, `service_data.<UUID>`,
/// `manufacturer_id`, `manufacturer_data`, `frames` (the beacon formats seen), the beacon's
/// own fields under `ibeacon.`, `eddystone.`, `altbeacon.`, `ruuvi.` or a declarative
/// decoder's name, and `errors`.
public struct AdvertisingDecoder: Sendable {
    /// Decoders for other vendors' manufacturer data.
    public var custom: [ManufacturerDecoder]

    public init(custom: [ManufacturerDecoder] = []) {
        self.custom = custom
    }

    /// Appends the decoded fields of `data` to `fields`.
    public func decode(_ data: UnsafeRawBufferPointer, into fields: inout some FieldWriter) {
        var texts = HexTexts()
        var named = NamedFields(base: fields)
        decode(data, into: &named, texts: &texts)
        fields = named.base
    }

    /// ``decode(_:into:)``, reusing the hex texts of byte strings seen in earlier reports.
    func decode(_ data: UnsafeRawBufferPointer, into fields: inout some ReportWriter, texts: inout HexTexts) {
        var frames = FrameList()
        var errors: [Value] = []
        var services: [Value] = []
        var i = 0
        while i < data.count {
            let length = Int(data[i])
            if length == 0 {
                // Zero length: padding, allowed only when nothing but zeros follows.
                if data[i...].contains(where: { $0 != 0 }) {
                    errors.append(.string("offset \(i): AD structure of length 0 before more data"))
                }
                break
            }
            guard i + 1 + length <= data.count else {
                errors.append(
                    .string(
                        "offset \(i): AD structure length \(length) runs past the end (report has \(data.count) bytes)")
                )
                break
            }
            let type = data[i + 1]
            let body = UnsafeRawBufferPointer(rebasing: data[(i + 2)..<(i + 1 + length)])
            structure(
                type, body, at: i + 2, into: &fields, frames: &frames, services: &services, errors: &errors,
                texts: &texts)
            i += 1 + length
        }
        if !services.isEmpty { fields.set(.services, .array(services)) }
        if !frames.isEmpty { fields.set(.frames, frames.value) }
        if !errors.isEmpty { fields.set(.errors, .array(errors)) }
    }

    private func structure(
        _ type: UInt8, _ body: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter,
        frames: inout FrameList,
        services: inout [Value], errors: inout [Value], texts: inout HexTexts
    ) {
        switch type {
        case 0x01:
            if let flags = body.u8(0) { f.set(.flags, int: Int64(flags)) }
        case 0x02, 0x03: uuids(body, size: 2, at: offset, into: &services, errors: &errors)
        case 0x04, 0x05: uuids(body, size: 4, at: offset, into: &services, errors: &errors)
        case 0x06, 0x07: uuids(body, size: 16, at: offset, into: &services, errors: &errors)
        case 0x08, 0x09:
            // A complete name wins over a shortened one.
            if type == 0x09 || !f.has(.name) { f.set(.name, string: String(decoding: body, as: UTF8.self)) }
        case 0x0A:
            if let p = body.i8(0) { f.set(.txPower, int: Int64(p)) }
        case 0x16:
            guard let uuid = body.u16le(0) else {
                errors.append(.string("offset \(offset): service data shorter than its 16-bit UUID"))
                return
            }
            let payload = UnsafeRawBufferPointer(rebasing: body[2...])
            if uuid == 0xFEAA {
                Eddystone.decode(payload, at: offset + 2, into: &f, frames: &frames, errors: &errors, texts: &texts)
            } else {
                f.set(
                    named: "service_data." + Hex.string([UInt8(uuid >> 8), UInt8(uuid & 0xFF)]),
                    .string(Hex.string(payload)))
            }
        case 0x20, 0x21:
            let size = type == 0x20 ? 4 : 16
            guard body.count >= size else {
                errors.append(.string("offset \(offset): service data shorter than its \(size * 8)-bit UUID"))
                return
            }
            let uuid = size == 4 ? Hex.string(littleEndian: body[0..<4]) : Hex.uuid(littleEndian: body[0..<16])
            f.set(named: "service_data." + uuid, .string(Hex.string(body[size...])))
        case 0xFF:
            manufacturer(body, at: offset, into: &f, frames: &frames, errors: &errors, texts: &texts)
        default:
            break
        }
    }

    private func uuids(
        _ body: UnsafeRawBufferPointer, size: Int, at offset: Int, into services: inout [Value], errors: inout [Value]
    ) {
        if body.count % size != 0 {
            errors.append(
                .string(
                    "offset \(offset + body.count / size * size): truncated \(size * 8)-bit UUID (\(body.count % size) of \(size) bytes)"
                ))
        }
        var i = 0
        while i + size <= body.count {
            let le = body[i..<(i + size)]
            services.append(.string(size == 16 ? Hex.uuid(littleEndian: le) : Hex.string(littleEndian: le)))
            i += size
        }
    }

    private func manufacturer(
        _ body: UnsafeRawBufferPointer, at offset: Int, into f: inout some ReportWriter, frames: inout FrameList,
        errors: inout [Value], texts: inout HexTexts
    ) {
        guard let company = body.u16le(0) else {
            errors.append(.string("offset \(offset): manufacturer data shorter than its company identifier"))
            return
        }
        let payload = UnsafeRawBufferPointer(rebasing: body[2...])
        f.set(.manufacturerID, int: Int64(company))
        // Manufacturer data is most of a report's data: new data, new manufacturer data.
        f.set(.manufacturerData, string: texts.dataChanged ? Hex.string(body[2...]) : texts.text(body[2...], .plain))
        if company == 0x004C, payload.u8(0) == 0x02 {
            IBeacon.decode(payload, at: offset + 2, into: &f, frames: &frames, errors: &errors, texts: &texts)
        } else if company == 0x0499, payload.u8(0) == 0x05 {
            RuuviRAWv2.decode(payload, at: offset + 2, into: &f, frames: &frames, errors: &errors, texts: &texts)
        } else if payload.u16be(0) == 0xBEAC {
            AltBeacon.decode(
                payload, company: company, at: offset + 2, into: &f, frames: &frames, errors: &errors, texts: &texts)
        } else if let d = custom.first(where: { $0.matches(company: company, payload) }) {
            d.decode(payload, at: offset + 2, into: &f, frames: &frames, errors: &errors)
        }
    }
}
