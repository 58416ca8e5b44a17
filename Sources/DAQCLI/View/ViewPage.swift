/// The view's one page, served from the binary: HTML, CSS and JavaScript with nothing fetched
/// from elsewhere (labs are often offline), assembled once.
enum ViewPage {
    /// The whole page as UTF-8.
    static let html: [UInt8] = Array(
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>daq view</title>
        <link rel="icon" href="data:,">
        <style>\(style)</style>
        </head>
        <body>
        \(body)
        <script>\(script)</script>
        </body>
        </html>
        """.utf8)

    static let body = """
        <header>
          <h1 id="pipeline">daq view</h1>
          <span id="state" class="badge">connecting</span>
          <span id="connection" class="muted"></span>
          <dl id="clock">
            <dt>clock</dt><dd id="clock-mode">–</dd>
            <dt>started</dt><dd id="started">–</dd>
            <dt>elapsed</dt><dd id="elapsed">–</dd>
            <dt>step</dt><dd id="step">–</dd>
          </dl>
          <div id="buttons">
            <button id="pause" type="button">Pause</button>
            <button id="resume" type="button">Resume</button>
            <button id="stop" type="button">Stop</button>
            <input id="step-path" type="text" placeholder="step path" size="14">
            <button id="next-step" type="button">Next step</button>
          </div>
        </header>
        <pre id="errors" hidden></pre>
        <main>
          <section id="batch" hidden>
            <h2>Batch <span id="batch-summary" class="muted"></span></h2>
            <table id="recordings"><thead><tr><th>recording</th><th>status</th></tr></thead><tbody></tbody></table>
          </section>
          <section id="pipeline-graph">
            <h2>Pipeline</h2>
            <svg id="graph" role="img" aria-label="pipeline graph"></svg>
            <ol id="steps"></ol>
          </section>
          <section id="signals">
            <h2>Signals <label class="muted">last <input id="window" type="number" value="30" min="1" max="600"> s</label></h2>
            <div id="charts"><p class="muted" id="no-data">waiting for samples…</p></div>
          </section>
          <section id="files">
            <h2>Outputs</h2>
            <table id="outputs"><thead><tr><th>file</th><th>format</th><th>size</th></tr></thead><tbody></tbody></table>
          </section>
          <section id="events">
            <h2>Log</h2>
            <ol id="log"></ol>
          </section>
        </main>
        <footer class="muted" id="view-stats"></footer>
        """
}
