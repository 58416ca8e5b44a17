"""The same table as parquet-bench, written by pyarrow from pandas, and read from CSV first.

python3 pyarrow-peer.py ROWS OUT.parquet zstd|gzip|none
"""
import os
import sys
import time

import numpy as np
import pandas as pd
import pyarrow as pa
import pyarrow.parquet as pq

n, out, codec = int(sys.argv[1]), sys.argv[2], sys.argv[3]
i = np.arange(n)
up = i / 100
df = pd.DataFrame({
    'timestamp': pd.to_datetime(((1_700_000_000 + up) * 1e6).round().astype('int64'), unit='us', utc=True),
    'uptime': up, 'stepPath': 'walk', 'kind': 'data', 'marker': pd.Series([None] * n, dtype='string'),
    'x': np.sin(i / 50), 'y': np.cos(i / 70) * 0.5, 'z': 1 + (i % 13) / 1000, 'seq': i.astype('int64'),
    'label': np.where(i % 1000 < 500, 'sitting', 'walking')})
csv = out + '.csv'
df.to_csv(csv, index=False)
t = time.time()
pd.read_csv(csv, parse_dates=['timestamp'])
read_csv = time.time() - t
t = time.time()
pq.write_table(pa.Table.from_pandas(df, preserve_index=False), out, compression=codec)
write = time.time() - t
print(f"pyarrow {codec}: write_table {n / write:,.0f} rows/s; read_csv + write_table {n / (read_csv + write):,.0f} "
      f"rows/s; {os.path.getsize(out):,} bytes")
