import Foundation

/// A run directory as `daq repair` and `daq inspect` read it: its `manifest.json`, and whether
/// the run that wrote it is still going, ended, or was interrupted (killed, crashed, a power
/// cut) before it could write its last manifest.
///
/// A running `daq` holds a lock on each run directory it writes (``RunRecorder``); the kernel
/// drops it when the process ends, however it ends. So a manifest that says `running` in a
/// directory nobody holds was left by an interrupted run.
public struct RunRecord: Sendable {
    /// What the directory's record says, checked against its lock.
    public enum Status: Sendable, Equatable {
        /// A live process is writing the run.
        case running
        /// The run ended and said how: `finished`, `failed`, `cancelled` or `interrupted`.
        case ended(String)
        /// The manifest says `running` but no process holds the run: it was killed.
        case interrupted
    }

    /// A directory that is not a run directory, or whose manifest cannot be read.
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public var path: String
        public var reason: String
        public var description: String { "\(path): \(reason)" }
    }

    /// The run directory.
    public let directory: String
    /// The manifest as it is on disk.
    public let manifest: Fields
    /// What it says, checked against the lock.
    public let status: Status
    /// When the run last wrote one of its files (seconds since 1970), if it wrote any.
    public let lastWrite: Double?

    /// The status an interrupted run's manifest gets.
    public static let interruptedStatus = "interrupted"

    /// Whether `path` is a directory holding a `manifest.json`.
    public static func isRunDirectory(_ path: String) -> Bool {
        var isDirectory: ObjCBool = false
        return FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) && isDirectory.boolValue
            && FileManager.default.fileExists(atPath: (path as NSString).appendingPathComponent("manifest.json"))
    }

    /// Reads the record of the run directory `directory`.
    /// - Throws: ``Failure`` when there is no readable manifest.
    public init(directory: String) throws(Failure) {
        self.directory = directory
        let path = (directory as NSString).appendingPathComponent("manifest.json")
        guard let data = FileManager.default.contents(atPath: path) else {
            throw Failure(path: path, reason: "cannot read the run's manifest")
        }
        guard case .object(let fields)? = try? JSONParser.parse([UInt8](data)), let said = fields["status"]?.stringValue
        else {
            throw Failure(path: path, reason: "not a run manifest (no JSON object with a \"status\")")
        }
        manifest = fields
        if said != LifecycleState.running.rawValue {
            status = .ended(said)
        } else {
            status = RunDirectoryLock.isHeld(directory) ? .running : .interrupted
        }
        lastWrite = Self.dataFiles(in: directory).compactMap { $0.modified }.max()
    }

    /// One line for people: what the record says, and for an interrupted run what to do.
    public var summary: String {
        switch status {
        case .running: return "\(directory): running (a daq process is writing it)"
        case .ended(let s):
            let failure = manifest["failure"]?.stringValue.map { ": \($0)" } ?? ""
            return "\(directory): \(s)\(failure)"
        case .interrupted:
            let last = lastWrite.map { "; last write \(ISODate.string($0))" } ?? ""
            return "\(directory): interrupted: its manifest still says running and no process holds it\(last)"
        }
    }

    /// Rewrites the manifest of an interrupted run: status `interrupted`, `endDate` the last
    /// write to its files (null when it wrote none), the reason, and `files` as they are now;
    /// a `manifest.json.tmp` the killed run left is removed.
    /// - Parameters:
    ///   - files: the run's files after repair, paths inside ``directory``.
    ///   - contentHash: hashes each file for the manifest; `nil` records `null` (see ``ContentHash``).
    /// - Throws: ``RecordFile/Failure`` when the manifest cannot be written; the old one stays.
    public func markInterrupted(
        files: [RunRecorder.OutputFile], contentHash: ContentHash?
    ) throws(RecordFile.Failure) {
        var m = manifest
        m["status"] = .string(Self.interruptedStatus)
        m["endDate"] = lastWrite.map { .string(ISODate.string($0)) } ?? .null
        m["failure"] = .string(
            "interrupted: the run ended without closing its record (killed or crashed); endDate is the last write to its files"
        )
        m["files"] = .array(
            files.map { f in
                let full = (directory as NSString).appendingPathComponent(f.path)
                return .object([
                    "path": .string(f.path), "format": .string(f.format), "samples": .int(Int64(f.samples)),
                    "bytes": .int(Int64(f.bytes)), "sha256": contentHash?.hex(ofFile: full).map(Value.string) ?? .null,
                ])
            })
        var notes: [Value] = []
        if case .array(let earlier)? = m["notes"] { notes = earlier }
        notes.append(.string("marked interrupted by daq repair at \(ISODate.string(Date().timeIntervalSince1970))"))
        m["notes"] = .array(notes)
        var bytes: [UInt8] = []
        JSONEncoding.append(.object(m), to: &bytes)
        bytes.append(0x0A)
        let target = (directory as NSString).appendingPathComponent("manifest.json")
        try RecordFile.write(bytes, to: target)
        // A run killed while it wrote its manifest leaves the temporary file: debris, now.
        unlink(target + ".tmp")
    }

    /// The regular files a run wrote into `directory`: everything but the manifest and what
    /// repair and atomic writes keep beside (`.orig`, `.tmp`).
    public static func dataFiles(in directory: String) -> [(name: String, modified: Double?)] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        return names.sorted().compactMap { name in
            if name == "manifest.json" || name.hasSuffix(".tmp") || name.contains(".orig") { return nil }
            let path = (directory as NSString).appendingPathComponent(name)
            guard let a = try? FileManager.default.attributesOfItem(atPath: path),
                a[.type] as? FileAttributeType == .typeRegular
            else { return nil }
            return (name, (a[.modificationDate] as? Date)?.timeIntervalSince1970)
        }
    }
}
