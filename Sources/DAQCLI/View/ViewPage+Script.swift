extension ViewPage {
    /// The page's program: reads the event stream, draws the graph and the strip charts, and
    /// sends the buttons' commands. Any error it meets is written into `#errors`, so a test (or
    /// a user) sees it on the page.
    static let script = #"""
        'use strict';
        const $ = (id) => document.getElementById(id);
        function reportError(text) { const e = $('errors'); e.hidden = false; e.textContent += text + '\n'; }
        window.addEventListener('error', (e) => reportError('error: ' + e.message));
        window.addEventListener('unhandledrejection', (e) => reportError('unhandled: ' + e.reason));

        const token = new URLSearchParams(location.search).get('token');
        const query = token ? '?token=' + encodeURIComponent(token) : '';
        const colors = ['#1f77b4', '#d62728', '#2ca02c', '#ff7f0e', '#9467bd', '#8c564b', '#e377c2', '#17becf',
          '#7f7f7f', '#bcbd22'];
        const view = { stats: null, previous: null, previousAt: 0, rates: {}, descriptors: {}, streams: {},
          marks: [], latest: 0, ended: false, step: '', dirty: true, fast: false, latestAt: 0, graph: null };
        const maxSeconds = 600;

        function text(el, value) { if (el.textContent !== value) el.textContent = value; }
        function svg(tag, attrs) {
          const el = document.createElementNS('http://www.w3.org/2000/svg', tag);
          for (const k in attrs) el.setAttribute(k, attrs[k]);
          return el;
        }
        function count(v) {
          if (v >= 1e6) return (v / 1e6).toFixed(1) + 'M';
          if (v >= 1e4) return Math.round(v / 1e3) + 'k';
          return String(Math.round(v));
        }
        function bytes(n) {
          const units = ['B', 'KB', 'MB', 'GB', 'TB'];
          let i = 0; while (n >= 1024 && i < units.length - 1) { n /= 1024; i++; }
          return (i ? n.toFixed(1) : String(n)) + ' ' + units[i];
        }
        function duration(s) {
          if (!(s >= 0)) return '–';
          const h = Math.floor(s / 3600), m = Math.floor(s % 3600 / 60), r = s % 60;
          return (h ? h + 'h ' : '') + (h || m ? m + 'm ' : '') + r.toFixed(1) + 's';
        }

        // --- the event stream -------------------------------------------------------------------
        // The stream reconnects by itself (the server asks for a second between tries): after a
        // network glitch, and after the view stopped, to the next run served at this address.
        // Each connection starts with the recent past, so a page that opened before starts over.
        const events = new EventSource('events' + query);
        events.onopen = () => {
          if (view.opened) {
            onReset({ title: '' });
            // A batch's table too: the next view may serve a single run.
            $('batch').hidden = true; $('recordings').tBodies[0].replaceChildren();
          }
          view.opened = true;
          text($('connection'), 'live');
        };
        events.onerror = () => {
          // A refusal (a new run's view with a token of its own) ends the stream's retries for good.
          if (events.readyState === EventSource.CLOSED) {
            text($('connection'), 'the view at this address refused this page: open the address its run printed');
          } else if (!view.ended) text($('connection'), 'reconnecting…');
        };
        events.addEventListener('stats', (e) => onStats(JSON.parse(e.data)));
        events.addEventListener('data', (e) => onData(JSON.parse(e.data)));
        events.addEventListener('mark', (e) => onMark(JSON.parse(e.data)));
        events.addEventListener('log', (e) => onLog(JSON.parse(e.data)));
        events.addEventListener('ended', () => {
          view.ended = true;
          setState('ended'); text($('connection'), 'the run has ended');
        });
        events.addEventListener('closing', () => {
          view.ended = true;
          if (view.stats) setState('ended');
          text($('connection'), 'the view has stopped; this page follows the next one served here');
        });
        events.addEventListener('batch', (e) => onBatch(JSON.parse(e.data)));
        events.addEventListener('reset', (e) => onReset(JSON.parse(e.data)));

        // A batch: its progress per recording; the page follows the recording started last.
        function onBatch(b) {
          $('batch').hidden = false;
          text($('batch-summary'), b.done + ' of ' + b.total + ' recordings done · ' + count(b.samples) + ' samples · ' +
            duration(b.elapsed) + (b.current ? ' · showing ' + b.current : ''));
          const body = $('recordings').tBodies[0];
          body.replaceChildren(...b.recordings.map((r) => {
            const tr = document.createElement('tr'), a = document.createElement('td'), s = document.createElement('td');
            a.textContent = r.input; s.textContent = r.status; s.className = r.status.replace(' ', '-');
            tr.append(a, s); tr.dataset.input = r.input; tr.dataset.status = r.status;
            return tr;
          }));
          if (b.done === b.total) { view.ended = true; setState('ended'); }
        }

        function onReset(message) {
          view.stats = null; view.previous = null; view.rates = {}; view.descriptors = {}; view.streams = {};
          view.marks = []; view.latest = 0; view.ended = false; view.step = ''; view.dirty = true;
          view.fast = false; view.latestAt = 0; view.graph = null;
          $('charts').replaceChildren(); $('graph').replaceChildren(); $('log').replaceChildren();
          $('outputs').tBodies[0].replaceChildren(); delete $('outputs').tBodies[0].dataset.key;
          $('steps').replaceChildren(); text($('view-stats'), '');
          text($('pipeline'), message.title); setState('starting');
        }

        function setState(state) { const b = $('state'); text(b, state); b.className = 'badge ' + state; }

        function onStats(message) {
          const s = message.stats, now = performance.now();
          if (view.stats && now > view.previousAt) {
            const dt = (now - view.previousAt) / 1000, before = {};
            // A run whose data goes faster than twice real time (a replay on the virtual clock)
            // changes its charts' whole window between two draws: they are then drawn once a
            // second with the rest, so that the page costs one rendering a second beside a run
            // that keeps the machine's cores busy.
            view.fast = dt > 0.2 && (view.latest - view.latestAt) / dt > 2;
            for (const st of view.stats.stages) before[st.name] = st;
            for (const st of s.stages) {
              const b = before[st.name];
              if (b && dt > 0.2) view.rates[st.name] = { in: (st.samplesIn - b.samplesIn) / dt, out: (st.samplesOut - b.samplesOut) / dt };
            }
          }
          view.previous = view.stats; view.stats = s; view.previousAt = now; view.latestAt = view.latest;
          // Descriptors that arrive after a stream's first frames relabel its legend at the next draw.
          const descriptors = message.descriptors || {};
          if (JSON.stringify(descriptors) !== JSON.stringify(view.descriptors)) view.dirty = true;
          view.descriptors = descriptors;
          document.title = s.pipeline + ' — daq view';
          text($('pipeline'), s.pipeline);
          if (!view.ended) setState(s.state);
          text($('clock-mode'), s.clock || '–');
          text($('started'), s.startDate ? new Date(s.startDate * 1000).toLocaleTimeString() : '–');
          text($('elapsed'), duration(s.uptime));
          const v = message.view;
          text($('view-stats'), 'view: ' + v.taps + ' streams tapped, ' + v.clients + ' page(s) connected, ' + v.framesSent + ' frames sent, ' +
            v.framesDropped + ' dropped for slow pages, ' + v.tapSkipped + ' samples thinned by the tap');
          drawGraph(s);
          drawSteps(s.steps || []);
          drawOutputs(s.outputs || []);
          if (view.fast) drawCharts();
          document.body.dataset.pace = view.fast ? 'fast' : 'live';
          document.body.dataset.ready = '1';
        }

        function onData(message) {
          let stream = view.streams[message.stream];
          if (!stream) stream = view.streams[message.stream] = { buckets: [], fields: [] };
          stream.fields = message.fields;
          for (const b of message.buckets) {
            stream.buckets.push({ first: b[0], last: b[1], step: b[2], min: b[3], max: b[4] });
            if (b[1] > view.latest) view.latest = b[1];
            view.step = b[2];
          }
          const keepFrom = view.latest - maxSeconds;
          while (stream.buckets.length > 0 && (stream.buckets[0].last < keepFrom || stream.buckets.length > 20000)) stream.buckets.shift();
          text($('step'), view.step || '–');
          view.dirty = true;
        }

        function onMark(message) {
          view.marks.push(message);
          if (view.marks.length > 1000) view.marks.shift();
          if (message.kind === 'marker') view.step = message.text;
          view.dirty = true;
        }

        function onLog(message) {
          const li = document.createElement('li');
          li.className = message.level;
          const t = document.createElement('span'); t.className = 't'; t.textContent = message.t.toFixed(1) + ' s';
          li.appendChild(t); li.appendChild(document.createTextNode(message.text));
          const log = $('log'); log.appendChild(li);
          while (log.children.length > 500) log.removeChild(log.firstChild);
          log.scrollTop = log.scrollHeight;
        }

        // --- the pipeline graph -----------------------------------------------------------------
        // The nodes and edges are built when the pipeline's shape changes (the first stats, a
        // reload); each second only their text changes, so a second's update costs the browser
        // a few glyphs, not a new picture.
        function drawGraph(s) {
          const shape = JSON.stringify(s.stages.map((st) => [st.name, st.kind, st.inputs || []]));
          if (!view.graph || view.graph.shape !== shape) view.graph = layoutGraph(s, shape);
          for (const st of s.stages) {
            const node = view.graph.nodes[st.name], r = view.rates[st.name], sink = st.kind === 'sink';
            const lossy = st.dropped > 0 || st.failed > 0 || st.errors > 0;
            const fill = st.bufferCapacity > 0 ? Math.round(st.buffered * 100 / st.bufferCapacity) + '%' : '–';
            const lines = [
              ['name', st.name],
              ['', st.type + ' · ' + st.state],
              ['', 'in ' + (st.kind === 'source' ? '–' : r ? count(r.in) + '/s' : '…') + ' · out ' + (sink ? '–' : r ? count(r.out) + '/s' : '…') + ' · buffer ' + fill],
              [lossy ? 'warn' : '', 'dropped ' + st.dropped + ' (buffer) · errors ' + st.errors + (sink ? ' · failed ' + st.failed : '')],
              ['', sink ? 'sent ' + count(st.sent) + ' · delivered ' + count(st.delivered) : 'samples out ' + count(st.samplesOut)],
            ];
            lines.forEach(([cls, value], k) => {
              const t = node.texts[k];
              text(t, value);
              if (t.getAttribute('class') !== cls) t.setAttribute('class', cls);
            });
            const nodeClass = 'node' + (lossy ? ' lossy' : '');
            if (node.g.getAttribute('class') !== nodeClass) node.g.setAttribute('class', nodeClass);
            if (lossy && !node.title) {
              node.title = Object.assign(svg('title', {}), { textContent: st.name + ' is losing data' });
              node.g.appendChild(node.title);
            }
          }
        }

        // Places the components in columns by their distance from the sources, and draws the edges.
        function layoutGraph(s, shape) {
          const names = s.stages.map((st) => st.name), depth = {};
          const inputsOf = (st) => (st.inputs || []).map((i) => i.replace(/\.dead$/, '')).filter((i) => names.includes(i));
          for (let pass = 0; pass < names.length; pass++) {
            for (const st of s.stages) {
              let d = 0;
              for (const i of inputsOf(st)) d = Math.max(d, (depth[i] ?? 0) + 1);
              depth[st.name] = d;
            }
          }
          const columns = [];
          for (const st of s.stages) (columns[depth[st.name]] ||= []).push(st);
          const w = 190, h = 86, gx = 40, gy = 14, position = {};
          columns.forEach((col, c) => col.forEach((st, r) => { position[st.name] = { x: 4 + c * (w + gx), y: 4 + r * (h + gy) }; }));
          const g = $('graph');
          const width = Math.max(1, columns.length) * (w + gx), height = Math.max(...columns.map((c) => c.length), 1) * (h + gy);
          g.setAttribute('viewBox', '0 0 ' + width + ' ' + height);
          g.replaceChildren();
          const defs = svg('defs', {}), arrow = svg('marker', { id: 'arrow', viewBox: '0 0 10 10', refX: '10', refY: '5',
            markerWidth: '6', markerHeight: '6', orient: 'auto' });
          arrow.appendChild(svg('path', { d: 'M0,0 L10,5 L0,10 z', fill: '#9aa3ad' }));
          defs.appendChild(arrow); g.appendChild(defs);
          for (const st of s.stages) for (const i of inputsOf(st)) {
            const a = position[i], b = position[st.name];
            const x1 = a.x + w, y1 = a.y + h / 2, x2 = b.x, y2 = b.y + h / 2;
            g.appendChild(svg('path', { class: 'edge', d: `M${x1},${y1} C${x1 + gx / 2},${y1} ${x2 - gx / 2},${y2} ${x2},${y2}` }));
          }
          const nodes = {};
          for (const st of s.stages) {
            const p = position[st.name];
            const node = svg('g', { class: 'node', 'data-component': st.name, transform: `translate(${p.x},${p.y})` });
            node.appendChild(svg('rect', { width: w, height: h }));
            const texts = [0, 1, 2, 3, 4].map((k) => node.appendChild(svg('text', { x: 8, y: 16 + k * 16, class: '' })));
            g.appendChild(node);
            nodes[st.name] = { g: node, texts, title: null };
          }
          return { shape, nodes };
        }

        function drawSteps(steps) {
          const ol = $('steps');
          if (ol.children.length !== steps.length) {
            ol.replaceChildren(...steps.map((p) => { const li = document.createElement('li'); li.textContent = p; return li; }));
          }
          Array.from(ol.children).forEach((li) => li.classList.toggle('current', li.textContent === view.step));
          const next = steps[steps.indexOf(view.step) + 1];
          const input = $('step-path');
          if (next && document.activeElement !== input && input.dataset.edited !== '1') input.value = next;
        }

        // Rebuilt only when the list of files changes; otherwise each row's size is updated.
        function drawOutputs(outputs) {
          const body = $('outputs').tBodies[0];
          const key = outputs.map((o) => o.path + '\n' + o.format).join('\n');
          if (body.dataset.key !== key) {
            body.dataset.key = key;
            body.replaceChildren(...outputs.map((o) => {
              const tr = document.createElement('tr');
              for (const [cls, value] of [['', o.path], ['', o.format], ['size', '']]) {
                const td = document.createElement('td'); td.className = cls; td.textContent = value; tr.appendChild(td);
              }
              return tr;
            }));
          }
          outputs.forEach((o, i) => {
            const tr = body.rows[i];
            text(tr.cells[2], bytes(o.bytes));
            if (tr.dataset.bytes !== String(o.bytes)) tr.dataset.bytes = o.bytes;
          });
        }

        // --- the strip charts -------------------------------------------------------------------
        function chartFor(name) {
          let section = document.querySelector(`.chart[data-stream="${CSS.escape(name)}"]`);
          if (section) return section;
          $('no-data')?.remove();
          section = document.createElement('section');
          section.className = 'chart'; section.dataset.stream = name;
          const h = document.createElement('h3'); h.textContent = name;
          const legend = document.createElement('div'); legend.className = 'legend';
          section.append(h, legend, document.createElement('canvas'));
          $('charts').appendChild(section);
          return section;
        }

        function unitOf(stream, field) {
          const d = view.descriptors[stream];
          const f = d && d.fields.find((x) => x.name === field);
          return f && f.unit ? f.unit : '';
        }

        function drawLegend(section, name, fields) {
          const labels = fields.map((f) => f + (unitOf(name, f) ? ' (' + unitOf(name, f) + ')' : ''));
          const key = labels.join('|');
          if (section.dataset.fields === key) return;
          section.dataset.fields = key;
          const legend = section.querySelector('.legend');
          legend.replaceChildren(...fields.map((f, i) => {
            const span = document.createElement('span'); span.className = 'field';
            span.dataset.field = f; span.dataset.unit = unitOf(name, f);
            const sw = document.createElement('span'); sw.className = 'swatch'; sw.style.background = colors[i % colors.length];
            span.append(sw, document.createTextNode(labels[i]));
            return span;
          }));
        }

        function drawCharts() {
          if (!view.dirty) return;
          view.dirty = false;
          const seconds = Math.min(maxSeconds, Math.max(1, Number($('window').value) || 30));
          // Until the run has covered the window, the chart starts at the run's start.
          const end = view.latest, start = Math.max(0, end - seconds), span = Math.max(end - start, 1);
          for (const name of Object.keys(view.streams)) {
            const stream = view.streams[name];
            if (stream.fields.length === 0) continue;
            const section = chartFor(name);
            drawLegend(section, name, stream.fields);
            const canvas = section.querySelector('canvas');
            const ratio = window.devicePixelRatio || 1, cw = canvas.clientWidth || 600, ch = canvas.clientHeight || 180;
            if (canvas.width !== Math.round(cw * ratio)) { canvas.width = Math.round(cw * ratio); canvas.height = Math.round(ch * ratio); }
            const ctx = canvas.getContext('2d');
            ctx.setTransform(ratio, 0, 0, ratio, 0, 0);
            ctx.clearRect(0, 0, cw, ch);
            const left = 56, right = 8, top = 8, bottom = 20, pw = cw - left - right, ph = ch - top - bottom;
            const visible = stream.buckets.filter((b) => b.last >= start);
            let lo = Infinity, hi = -Infinity;
            for (const b of visible) for (let i = 0; i < stream.fields.length; i++) {
              if (b.min[i] != null && b.min[i] < lo) lo = b.min[i];
              if (b.max[i] != null && b.max[i] > hi) hi = b.max[i];
            }
            if (!(lo <= hi)) { lo = -1; hi = 1; }
            if (lo === hi) { lo -= 1; hi += 1; }
            const x = (t) => left + (t - start) / span * pw, y = (v) => top + (hi - v) / (hi - lo) * ph;
            // Steps: each run of one step shaded and labelled.
            let runStart = null, runStep = '', shade = 0;
            const flush = (until) => {
              if (runStep) {
                ctx.fillStyle = shade++ % 2 ? 'rgba(80,120,200,0.07)' : 'rgba(80,160,120,0.09)';
                const x0 = Math.max(left, x(runStart)), x1 = Math.min(left + pw, x(until));
                ctx.fillRect(x0, top, Math.max(1, x1 - x0), ph);
                ctx.fillStyle = '#55606e'; ctx.font = '11px sans-serif'; ctx.fillText(runStep, x0 + 3, top + 11);
              }
            };
            for (const b of visible) {
              if (runStart === null) { runStart = b.first; runStep = b.step; }
              else if (b.step !== runStep) { flush(b.first); runStart = b.first; runStep = b.step; }
            }
            if (runStart !== null) flush(visible[visible.length - 1].last);
            // Axes.
            ctx.strokeStyle = '#c9ced6'; ctx.lineWidth = 1; ctx.strokeRect(left, top, pw, ph);
            ctx.fillStyle = '#55606e'; ctx.font = '11px sans-serif';
            ctx.fillText(hi.toPrecision(4), 2, top + 10); ctx.fillText(lo.toPrecision(4), 2, top + ph);
            ctx.fillText(duration(start), left, ch - 5);
            const endLabel = duration(end); ctx.fillText(endLabel, left + pw - ctx.measureText(endLabel).width, ch - 5);
            // Gaps: a pause longer than a few sample periods (or two seconds, for irregular streams).
            const d = view.descriptors[name], rate = d && d.rate_hz;
            const gap = rate ? Math.max(3 / rate, 0.2) : 2;
            let points = 0;
            ctx.save(); ctx.beginPath(); ctx.rect(left, top, pw, ph); ctx.clip();
            stream.fields.forEach((f, i) => {
              ctx.strokeStyle = colors[i % colors.length]; ctx.fillStyle = colors[i % colors.length]; ctx.lineWidth = 1.2;
              let previous = null;
              ctx.beginPath();
              for (const b of visible) {
                const mn = b.min[i], mx = b.max[i];
                if (mn == null || mx == null) { previous = null; continue; }
                const x0 = x(b.first), x1 = Math.max(x(b.last), x0 + 1);
                if (previous && b.first - previous.last <= gap) ctx.lineTo(x0, y((mn + mx) / 2));
                else ctx.moveTo(x0, y((mn + mx) / 2));
                // The bucket's range: every value between its least and greatest was crossed.
                ctx.moveTo(x0, y(mx)); ctx.lineTo(x0, y(mn)); ctx.moveTo(x1, y(mn)); ctx.lineTo(x1, y(mx));
                ctx.moveTo(x1, y((mn + mx) / 2));
                previous = b; points++;
              }
              ctx.stroke();
            });
            // Markers and events: vertical lines with their text.
            ctx.font = '11px sans-serif';
            for (const m of view.marks) {
              if (m.t < start || m.t > end || (m.kind === 'event' && m.stream !== name)) continue;
              ctx.strokeStyle = m.kind === 'event' ? '#c62828' : '#37474f'; ctx.setLineDash([4, 3]);
              ctx.beginPath(); ctx.moveTo(x(m.t), top); ctx.lineTo(x(m.t), top + ph); ctx.stroke(); ctx.setLineDash([]);
              ctx.fillStyle = ctx.strokeStyle; ctx.fillText(m.text.slice(0, 40), x(m.t) + 3, top + ph - 4);
            }
            ctx.restore();
            section.dataset.points = points; section.dataset.end = end;
            const r = canvas.getBoundingClientRect();
            section.dataset.rect = [r.left, r.top, r.width, r.height].map(Math.round).join(',');
          }
        }
        // Once the stats stop (the run has ended, the stream broke), the charts take their last
        // frames on their own, a fast run's included.
        setInterval(() => { if (!view.fast || performance.now() - view.previousAt > 1500) drawCharts(); }, 250);
        $('window').addEventListener('change', () => { view.dirty = true; drawCharts(); });

        // --- the buttons: the same commands as daq control ----------------------------------------
        async function control(verb, path) {
          const url = 'control/' + verb + query + (path ? (query ? '&' : '?') + 'path=' + encodeURIComponent(path) : '');
          try {
            const response = await fetch(url, { method: 'POST', headers: { 'X-DAQ-View': '1' } });
            const answer = await response.json().catch(() => ({ ok: false, error: response.statusText }));
            onLog({ level: answer.ok ? 'info' : 'error', t: view.stats ? view.stats.uptime : 0,
              text: verb + (path ? ' ' + path : '') + ': ' + (answer.ok ? 'done' : answer.error) });
          } catch (e) {
            onLog({ level: 'error', t: 0, text: verb + ': ' + e });
          }
        }
        $('pause').addEventListener('click', () => control('pause'));
        $('resume').addEventListener('click', () => control('resume'));
        $('stop').addEventListener('click', () => control('stop'));
        $('step-path').addEventListener('input', (e) => { e.target.dataset.edited = '1'; });
        $('next-step').addEventListener('click', () => {
          const path = $('step-path').value.trim();
          if (path) { control('step', path); $('step-path').dataset.edited = ''; }
          else onLog({ level: 'warning', t: 0, text: 'next step: type a step path (this pipeline has no schedule left)' });
        });
        """#
}
