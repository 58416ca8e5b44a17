extension ViewPage {
    static let style = """
        :root { --bg: #fbfbfa; --fg: #1d2330; --muted: #6b7280; --line: #d7dbe0; --bad: #c62828; --ok: #2e7d32; }
        * { box-sizing: border-box; }
        body { margin: 0; font: 14px/1.4 system-ui, sans-serif; background: var(--bg); color: var(--fg); }
        header { display: flex; flex-wrap: wrap; align-items: center; gap: 8px 16px; padding: 10px 16px;
          border-bottom: 1px solid var(--line); background: #fff; }
        h1 { font-size: 18px; margin: 0; }
        h2 { font-size: 15px; margin: 0 0 8px; }
        h3 { font-size: 13px; margin: 0 0 4px; }
        .muted { color: var(--muted); }
        .badge { padding: 2px 8px; border-radius: 10px; background: #e5e7eb; font-weight: 600; }
        .badge.running { background: #c8e6c9; } .badge.paused { background: #fff3c4; }
        .badge.stopping, .badge.finished, .badge.ended { background: #e0e0e0; }
        .badge.failed, .badge.cancelled { background: #ffcdd2; }
        dl { display: flex; gap: 4px 10px; margin: 0; } dt { color: var(--muted); } dd { margin: 0; font-variant-numeric: tabular-nums; }
        #buttons { display: flex; gap: 6px; margin-left: auto; }
        button { padding: 4px 10px; border: 1px solid #9aa3ad; border-radius: 4px; background: #fff; cursor: pointer; }
        button:hover { background: #eef2f6; }
        #errors { margin: 8px 16px; padding: 8px; background: #ffebee; color: var(--bad); white-space: pre-wrap; }
        main { display: grid; grid-template-columns: minmax(320px, 1fr) 2fr; gap: 16px; padding: 16px; }
        main > section { background: #fff; border: 1px solid var(--line); border-radius: 6px; padding: 10px; min-width: 0; }
        #signals { grid-row: span 3; grid-column: 2; }
        #graph { width: 100%; display: block; }
        .node rect { fill: #fff; stroke: #7b8794; stroke-width: 1.2; rx: 5; }
        .node.lossy rect { stroke: var(--bad); stroke-width: 2.5; fill: #fff5f5; }
        .node text { font-size: 11px; fill: var(--fg); } .node text.name { font-weight: 700; font-size: 12px; }
        .node text.warn { fill: var(--bad); font-weight: 600; }
        .edge { stroke: #9aa3ad; stroke-width: 1.5; fill: none; marker-end: url(#arrow); }
        #steps { padding-left: 18px; margin: 8px 0 0; } #steps li.current { font-weight: 700; }
        .chart { margin-bottom: 12px; } .chart canvas { width: 100%; height: 180px; display: block;
          border: 1px solid var(--line); border-radius: 4px; background: #fff; }
        .legend { display: flex; flex-wrap: wrap; gap: 4px 12px; font-size: 12px; }
        .legend .swatch { display: inline-block; width: 10px; height: 10px; margin-right: 4px; border-radius: 2px; }
        table { border-collapse: collapse; width: 100%; font-size: 12px; }
        td, th { text-align: left; padding: 2px 6px; border-bottom: 1px solid var(--line); }
        td.size { text-align: right; font-variant-numeric: tabular-nums; }
        #log { list-style: none; padding: 0; margin: 0; max-height: 260px; overflow: auto; font-size: 12px; }
        #log li.warning { color: #a15c00; } #log li.error { color: var(--bad); }
        #log .t { color: var(--muted); margin-right: 6px; font-variant-numeric: tabular-nums; }
        footer { padding: 0 16px 12px; font-size: 12px; }
        #window { width: 4.5em; }
        #batch { grid-column: 1 / span 2; } #recordings { max-height: 200px; overflow: auto; display: block; }
        #recordings td.finished, #recordings td.skipped { color: var(--ok); }
        #recordings td.failed, #recordings td.interrupted { color: var(--bad); } #recordings td.running { font-weight: 700; }
        """
}
