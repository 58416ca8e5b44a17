import DAQCore
import DAQTesting
import Foundation
import Testing

/// A Parquet reader others wrote, run as `python3 -c` (scripts/test.sh installs each from PyPI).
enum ParquetOracle: String, CaseIterable, CustomStringConvertible, Sendable {
    case pyarrow, duckdb, polars

    var description: String { rawValue }

    /// A file, or a folder of parts read as one table (union by name).
    func read(_ path: String) throws -> OracleTable {
        let run = try Process.runToEnd("python3", ["-c", Self.prelude + script, path], timeout: 600)
        try #require(
            run.status == 0,
            "\(self) could not read \(path) (scripts/test.sh installs it: python3 -m pip install \(self)): \(run.errors.suffix(2000))"
        )
        return try OracleTable(json: JSONParser.parse(Array(run.stdout)))
    }

    /// Shared by every script: the files of a path, and values as JSON can hold them.
    private static let prelude = """
        import sys, os, glob, json
        p = sys.argv[1]
        files = sorted(glob.glob(p + '/*.parquet')) if os.path.isdir(p) else [p]
        def conv(v):
            if isinstance(v, (bytes, bytearray, memoryview)): return bytes(v).hex()
            return v
        def emit(cols, rows, meta):
            print(json.dumps({'columns': cols, 'rows': [{k: conv(v) for k, v in r.items()} for r in rows], 'metadata': meta}))

        """

    private var script: String {
        switch self {
        case .pyarrow:
            """
            import pyarrow as pa, pyarrow.parquet as pq, pyarrow.dataset as ds
            schema = pa.unify_schemas([pq.read_schema(f) for f in files])
            t = ds.dataset(files, schema=schema, format='parquet').to_table()
            cols = [[f.name, str(f.type)] for f in t.schema]
            i = t.schema.get_field_index('timestamp')
            t = t.set_column(i, 'timestamp', t['timestamp'].cast(pa.int64()))
            meta = {k.decode(): v.decode() for k, v in (pq.read_schema(files[-1]).metadata or {}).items()}
            emit(cols, t.to_pylist(), meta)
            """
        case .duckdb:
            """
            import duckdb
            src = p + '/*.parquet' if os.path.isdir(p) else p
            q = "from read_parquet('%s', union_by_name=true)" % src
            rel = duckdb.sql('select * ' + q)
            cols = [[c, str(t)] for c, t in zip(rel.columns, rel.types)]
            rel = duckdb.sql('select * replace (epoch_us("timestamp") as "timestamp") ' + q)
            rows = [dict(zip(rel.columns, r)) for r in rel.fetchall()]
            meta = {k.decode(): v.decode() for k, v in duckdb.sql(
                "select key, value from parquet_kv_metadata('%s')" % files[-1]).fetchall()}
            emit(cols, rows, meta)
            """
        case .polars:
            """
            import polars as pl
            df = pl.concat([pl.read_parquet(f) for f in files], how='diagonal_relaxed')
            cols = [[c, str(t)] for c, t in zip(df.columns, df.dtypes)]
            df = df.with_columns(pl.col('timestamp').dt.epoch('us'))
            emit(cols, df.to_dicts(), {})
            """
        }
    }

    /// The type name this reader gives a column of `kind`.
    func typeName(_ kind: ColumnKind) -> String {
        switch (self, kind) {
        case (.pyarrow, .timestamp): "timestamp[us, tz=UTC]"
        case (.pyarrow, .double): "double"
        case (.pyarrow, .int): "int64"
        case (.pyarrow, .bool): "bool"
        case (.pyarrow, .string): "string"
        case (.pyarrow, .bytes): "binary"
        case (.duckdb, .timestamp): "TIMESTAMP WITH TIME ZONE"
        case (.duckdb, .double): "DOUBLE"
        case (.duckdb, .int): "BIGINT"
        case (.duckdb, .bool): "BOOLEAN"
        case (.duckdb, .string): "VARCHAR"
        case (.duckdb, .bytes): "BLOB"
        case (.polars, .timestamp): "Datetime(time_unit='us', time_zone='UTC')"
        case (.polars, .double): "Float64"
        case (.polars, .int): "Int64"
        case (.polars, .bool): "Boolean"
        case (.polars, .string): "String"
        case (.polars, .bytes): "Binary"
        }
    }
}

/// What a column holds, whatever a reader calls it.
enum ColumnKind: Sendable {
    case timestamp, double, int, bool, string, bytes
}

/// A table as an oracle read it: column names and types, rows, and the footer's key/value metadata.
struct OracleTable {
    var columns: [(name: String, type: String)]
    var rows: [Fields]
    var metadata: [String: String]

    init(json: Value) throws {
        guard case .object(let top) = json, case .array(let cols)? = top["columns"],
            case .array(let rows)? = top["rows"]
        else { throw OracleOutputError() }
        columns = cols.compactMap { c in
            guard case .array(let pair) = c, pair.count == 2, let n = pair[0].stringValue, let t = pair[1].stringValue
            else { return nil }
            return (n, t)
        }
        self.rows = rows.map { if case .object(let f) = $0 { f } else { Fields() } }
        var meta: [String: String] = [:]
        if case .object(let m)? = top["metadata"] {
            for (k, v) in m.pairs { meta[k] = v.stringValue }
        }
        metadata = meta
    }
}

/// An oracle printed something other than its table.
struct OracleOutputError: Error {}
