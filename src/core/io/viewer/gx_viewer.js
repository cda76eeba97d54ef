/*
 * gx_viewer.js: the 3D viewer of gpuexact's HTML pages (gx_ashtml, gx-export's .html), plain WebGL with no
 * library, so that a page opens offline from a file. It reads the page's scene, the binary glTF that
 * gx_asglb writes (base64 in the script element #gx-scene): a root node whose translation is the scene's
 * centre (turned to glTF's y up) and whose children are meshes of float32 offsets from that centre, z up,
 * with triangles, lines and points coloured by their material. It draws triangles lit and, when asked,
 * translucent, then lines and points unlit; a box around the scene with ticks labelled in the data's own
 * coordinates (UTM eastings, northings, elevations); the page's legend (#gx-legend) beside it.
 * Drag: orbit; shift-drag or right-drag: pan; wheel: zoom; double-click: the whole scene again.
 */
(function () {
	"use strict";

	var MODE_POINTS = 0, MODE_LINES = 1, MODE_TRIANGLES = 4;
	var SEE_THROUGH_ALPHA = 0.35;
	var BOX_COLOUR = [0.6, 0.6, 0.6, 1];

	function addStyle() {
		var style = document.createElement("style");
		style.textContent =
			"html, body { margin: 0; height: 100%; overflow: hidden; background: #262626; color: #ddd;" +
			" font: 12px sans-serif; }\n" +
			"#gx-canvas { display: block; width: 100%; height: 100%; }\n" +
			".gx-label { position: absolute; transform: translate(-50%, -50%); white-space: nowrap;" +
			" pointer-events: none; }\n" +
			".gx-title { font-weight: bold; }\n" +
			"#gx-legend { position: absolute; top: 8px; right: 8px; margin: 0; padding: 6px 10px;" +
			" list-style: none; background: rgba(0, 0, 0, 0.5); }\n" +
			"#gx-legend:empty { display: none; }\n" +
			"#gx-legend span { display: inline-block; width: 12px; height: 12px; margin-right: 6px;" +
			" vertical-align: middle; border: 1px solid #888; }\n" +
			"#gx-help { position: absolute; left: 8px; bottom: 8px; color: #aaa; }\n";
		document.head.appendChild(style);
	}

	function decodeBase64(text) {
		var binary = atob(text.replace(/\s+/g, ""));
		var bytes = new Uint8Array(binary.length);

		for (var i = 0; i < binary.length; i++)
			bytes[i] = binary.charCodeAt(i);
		return bytes;
	}

	/* The JSON and BIN chunks of a .glb file. */
	function parseGlb(bytes) {
		var view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);

		if (bytes.byteLength < 20 || view.getUint32(0, true) !== 0x46546C67)
			throw new Error("the scene is not a binary glTF file");
		var jsonLength = view.getUint32(12, true);
		var json = JSON.parse(new TextDecoder().decode(bytes.subarray(20, 20 + jsonLength)));
		var binAt = 20 + jsonLength;
		var bin = null;

		if (binAt + 8 <= bytes.byteLength)
			bin = bytes.subarray(binAt + 8, binAt + 8 + view.getUint32(binAt, true));
		return { json: json, bin: bin };
	}

	/* An accessor's data as a typed array over BIN (float32 or uint32, 4-byte aligned as gx_asglb writes). */
	function readAccessor(glb, index) {
		var accessor = glb.json.accessors[index];
		var bufferView = glb.json.bufferViews[accessor.bufferView];
		var components = accessor.type === "VEC3" ? 3 : 1;
		var at = glb.bin.byteOffset + (bufferView.byteOffset || 0) + (accessor.byteOffset || 0);
		var Type = accessor.componentType === 5126 ? Float32Array : Uint32Array;

		return new Type(glb.bin.buffer.slice(at, at + 4 * components * accessor.count));
	}

	/*
	 * The scene: its origin in the data's coordinates (the root's translation (x, z, -y) turned back), its
	 * box in offsets, and its primitives, each with its mode, colour, and positions in drawing order
	 * (triangles and segments unindexed, so that each triangle gets its own normal).
	 */
	function readScene(glb) {
		var json = glb.json;
		var root = json.nodes[json.scenes[json.scene || 0].nodes[0]];
		var t = root.translation || [0, 0, 0];
		var scene = { origin: [t[0], -t[2], t[1]], min: null, max: null, primitives: [] };

		(root.children || []).forEach(function (child) {
			var mesh = json.meshes[json.nodes[child].mesh];

			mesh.primitives.forEach(function (p) {
				var position = json.accessors[p.attributes.POSITION];
				var material = json.materials[p.material];
				var positions = readAccessor(glb, p.attributes.POSITION);
				var indices = readAccessor(glb, p.indices);
				var drawn = new Float32Array(3 * indices.length);

				for (var i = 0; i < indices.length; i++)
					for (var k = 0; k < 3; k++)
						drawn[3 * i + k] = positions[3 * indices[i] + k];
				scene.primitives.push({
					mode: p.mode,
					colour: material.pbrMetallicRoughness.baseColorFactor,
					positions: drawn,
					normals: p.mode === MODE_TRIANGLES ? triangleNormals(drawn) : null
				});
				scene.min = scene.min ? scene.min.map(function (v, k) { return Math.min(v, position.min[k]); }) : position.min;
				scene.max = scene.max ? scene.max.map(function (v, k) { return Math.max(v, position.max[k]); }) : position.max;
			});
		});
		return scene;
	}

	/* Each triangle's unit normal, repeated at its three corners. */
	function triangleNormals(p) {
		var normals = new Float32Array(p.length);

		for (var i = 0; i < p.length; i += 9) {
			var ux = p[i + 3] - p[i], uy = p[i + 4] - p[i + 1], uz = p[i + 5] - p[i + 2];
			var vx = p[i + 6] - p[i], vy = p[i + 7] - p[i + 1], vz = p[i + 8] - p[i + 2];
			var n = [uy * vz - uz * vy, uz * vx - ux * vz, ux * vy - uy * vx];
			var length = Math.hypot(n[0], n[1], n[2]) || 1;

			for (var c = 0; c < 3; c++)
				for (var k = 0; k < 3; k++)
					normals[i + 3 * c + k] = n[k] / length;
		}
		return normals;
	}

	/* Tick values at a round step (1, 2 or 5 times a power of ten) over [low, high], about 5 of them. */
	function ticks(low, high) {
		if (!(high > low))
			return { step: 1, values: [low] };
		var rough = (high - low) / 5;
		var power = Math.pow(10, Math.floor(Math.log10(rough)));
		var step = [1, 2, 5, 10].map(function (m) { return m * power; }).find(function (s) { return s >= rough; });
		var first = Math.ceil(low / step), last = Math.floor(high / step);
		var values = [];

		for (var i = first; i <= last && values.length < 12; i++)
			values.push(i * step);
		return { step: step, values: values };
	}

	function formatTick(value, step) {
		return value.toFixed(Math.max(0, -Math.floor(Math.log10(step) + 1e-9)));
	}

	/*
	 * The box around the scene as line segments, and its ticks: along x at (ymin, zmin), along y at (xmax,
	 * zmin), along z at (xmin, ymin), each with a label in the data's coordinates, and each axis' title past its
	 * end.
	 */
	function axes(scene) {
		var lo = scene.min, hi = scene.max;
		var size = Math.max(hi[0] - lo[0], hi[1] - lo[1], hi[2] - lo[2], 1e-9);
		var segments = [], labels = [];
		var corner = function (m) { return [m & 1 ? hi[0] : lo[0], m & 2 ? hi[1] : lo[1], m & 4 ? hi[2] : lo[2]]; };
		var edges = [[0, 1], [2, 3], [4, 5], [6, 7], [0, 2], [1, 3], [4, 6], [5, 7], [0, 4], [1, 5], [2, 6], [3, 7]];
		var axisAt = [[null, lo[1], lo[2]], [hi[0], null, lo[2]], [lo[0], lo[1], null]];
		var outwards = [[0, -1, 0], [1, 0, 0], [-1, -1, 0]];
		var titles = ["Easting", "Northing", "Elevation"];

		edges.forEach(function (e) { segments.push.apply(segments, corner(e[0]).concat(corner(e[1]))); });
		for (var k = 0; k < 3; k++) {
			var t = ticks(scene.origin[k] + lo[k], scene.origin[k] + hi[k]);
			var out = outwards[k].map(function (d) { return d * 0.03 * size; });

			t.values.forEach(function (value) {
				var p = axisAt[k].slice();

				p[k] = value - scene.origin[k];
				var q = p.map(function (v, j) { return v + out[j]; });
				segments.push.apply(segments, p.concat(q));
				labels.push({ at: p.map(function (v, j) { return v + 2.5 * out[j]; }), text: formatTick(value, t.step) });
			});
			var end = axisAt[k].slice();

			end[k] = hi[k] + 0.08 * size;
			labels.push({ at: end, text: titles[k] + " (m)", title: true });
		}
		return { positions: new Float32Array(segments), labels: labels };
	}

	/* 4x4 matrices, column-major as WebGL takes them. */
	function multiply(a, b) {
		var m = new Float32Array(16);

		for (var c = 0; c < 4; c++)
			for (var r = 0; r < 4; r++)
				for (var k = 0; k < 4; k++)
					m[4 * c + r] += a[4 * k + r] * b[4 * c + k];
		return m;
	}

	function perspective(fovy, aspect, near, far) {
		var f = 1 / Math.tan(fovy / 2);

		return new Float32Array([f / aspect, 0, 0, 0, 0, f, 0, 0, 0, 0, (far + near) / (near - far), -1,
			0, 0, 2 * far * near / (near - far), 0]);
	}

	function normalize(v) {
		var length = Math.hypot(v[0], v[1], v[2]) || 1;

		return [v[0] / length, v[1] / length, v[2] / length];
	}

	function cross(a, b) {
		return [a[1] * b[2] - a[2] * b[1], a[2] * b[0] - a[0] * b[2], a[0] * b[1] - a[1] * b[0]];
	}

	function dot(a, b) {
		return a[0] * b[0] + a[1] * b[1] + a[2] * b[2];
	}

	function lookAt(eye, target, up) {
		var f = normalize([target[0] - eye[0], target[1] - eye[1], target[2] - eye[2]]);
		var s = normalize(cross(f, up));
		var u = cross(s, f);

		return new Float32Array([s[0], u[0], -f[0], 0, s[1], u[1], -f[1], 0, s[2], u[2], -f[2], 0,
			-dot(s, eye), -dot(u, eye), dot(f, eye), 1]);
	}

	/* The orbit camera, z up: a target, a distance from it, an azimuth about z and an elevation. */
	function Camera(scene) {
		this.home = function () {
			this.target = scene.min.map(function (v, k) { return (v + scene.max[k]) / 2; });
			this.radius = Math.max(Math.hypot(scene.max[0] - scene.min[0], scene.max[1] - scene.min[1],
				scene.max[2] - scene.min[2]) / 2, 1e-6);
			this.distance = 3.3 * this.radius;
			this.azimuth = -Math.PI / 3;
			this.elevation = Math.PI / 6;
		};
		this.eye = function () {
			var c = Math.cos(this.elevation);

			return [this.target[0] + this.distance * c * Math.cos(this.azimuth),
				this.target[1] + this.distance * c * Math.sin(this.azimuth),
				this.target[2] + this.distance * Math.sin(this.elevation)];
		};
		this.viewProjection = function (aspect) {
			var near = this.distance / 100, far = this.distance + 4 * this.radius;

			return multiply(perspective(Math.PI / 5, aspect, near, far), lookAt(this.eye(), this.target, [0, 0, 1]));
		};
		this.orbit = function (dx, dy) {
			this.azimuth -= dx * 0.01;
			this.elevation = Math.max(-1.55, Math.min(1.55, this.elevation + dy * 0.01));
		};
		/* Moves the target in the view's plane, by pixels at the target's depth. */
		this.pan = function (dx, dy, height) {
			var eye = this.eye();
			var f = normalize([this.target[0] - eye[0], this.target[1] - eye[1], this.target[2] - eye[2]]);
			var s = normalize(cross(f, [0, 0, 1]));
			var u = cross(s, f);
			var scale = 2 * this.distance * Math.tan(Math.PI / 10) / height;

			for (var k = 0; k < 3; k++)
				this.target[k] += (-dx * s[k] + dy * u[k]) * scale;
		};
		this.zoom = function (factor) {
			this.distance = Math.max(this.radius / 1000, Math.min(this.radius * 100, this.distance * factor));
		};
		this.home();
	}

	var VERTEX_SHADER =
		"attribute vec3 position;\n" +
		"attribute vec3 normal;\n" +
		"uniform mat4 viewProjection;\n" +
		"varying vec3 vNormal;\n" +
		"void main() {\n" +
		"	vNormal = normal;\n" +
		"	gl_Position = viewProjection * vec4(position, 1.0);\n" +
		"	gl_PointSize = 4.0;\n" +
		"}\n";
	var FRAGMENT_SHADER =
		"precision mediump float;\n" +
		"uniform vec4 colour;\n" +
		"uniform float lit;\n" +
		"uniform vec3 light;\n" +
		"varying vec3 vNormal;\n" +
		"void main() {\n" +
		"	float shade = mix(1.0, 0.35 + 0.65 * abs(dot(normalize(vNormal), light)), lit);\n" +
		"	gl_FragColor = vec4(colour.rgb * shade, colour.a);\n" +
		"}\n";

	function compileProgram(gl) {
		var program = gl.createProgram();

		[[gl.VERTEX_SHADER, VERTEX_SHADER], [gl.FRAGMENT_SHADER, FRAGMENT_SHADER]].forEach(function (s) {
			var shader = gl.createShader(s[0]);

			gl.shaderSource(shader, s[1]);
			gl.compileShader(shader);
			if (!gl.getShaderParameter(shader, gl.COMPILE_STATUS))
				throw new Error(gl.getShaderInfoLog(shader));
			gl.attachShader(program, shader);
		});
		gl.bindAttribLocation(program, 0, "position");
		gl.bindAttribLocation(program, 1, "normal");
		gl.linkProgram(program);
		if (!gl.getProgramParameter(program, gl.LINK_STATUS))
			throw new Error(gl.getProgramInfoLog(program));
		return program;
	}

	function uploadBuffer(gl, data) {
		var buffer = gl.createBuffer();

		gl.bindBuffer(gl.ARRAY_BUFFER, buffer);
		gl.bufferData(gl.ARRAY_BUFFER, data, gl.STATIC_DRAW);
		return buffer;
	}

	/* One primitive: lit triangles with their normals, unlit lines and points with a normal of 0. */
	function drawPrimitive(gl, program, item, colour) {
		gl.uniform4fv(gl.getUniformLocation(program, "colour"), colour);
		gl.uniform1f(gl.getUniformLocation(program, "lit"), item.normals ? 1 : 0);
		gl.bindBuffer(gl.ARRAY_BUFFER, item.positionBuffer);
		gl.vertexAttribPointer(0, 3, gl.FLOAT, false, 0, 0);
		if (item.normalBuffer) {
			gl.enableVertexAttribArray(1);
			gl.bindBuffer(gl.ARRAY_BUFFER, item.normalBuffer);
			gl.vertexAttribPointer(1, 3, gl.FLOAT, false, 0, 0);
		} else {
			gl.disableVertexAttribArray(1);
			gl.vertexAttrib3f(1, 0, 0, 1);
		}
		gl.drawArrays(item.mode === MODE_TRIANGLES ? gl.TRIANGLES : item.mode === MODE_LINES ? gl.LINES : gl.POINTS,
			0, item.positions.length / 3);
	}

	/*
	 * A frame: opaque triangles, then lines and points, then translucent triangles over them without writing
	 * depth, so that what lies inside a translucent body shows through it.
	 */
	function drawScene(view) {
		var gl = view.gl, canvas = view.canvas, camera = view.camera;
		var eye = camera.eye();
		var light = normalize([eye[0] - camera.target[0] + 0.3 * camera.distance,
			eye[1] - camera.target[1], eye[2] - camera.target[2] + 0.5 * camera.distance]);
		var matrix = camera.viewProjection(canvas.width / canvas.height);
		var seeThrough = view.seeThrough.checked;
		var colourOf = function (item) {
			var c = item.colour;

			return item.normals && seeThrough ? [c[0], c[1], c[2], Math.min(c[3], SEE_THROUGH_ALPHA)] : c;
		};

		gl.viewport(0, 0, canvas.width, canvas.height);
		gl.clear(gl.COLOR_BUFFER_BIT | gl.DEPTH_BUFFER_BIT);
		gl.useProgram(view.program);
		gl.enableVertexAttribArray(0);
		gl.uniformMatrix4fv(gl.getUniformLocation(view.program, "viewProjection"), false, matrix);
		gl.uniform3fv(gl.getUniformLocation(view.program, "light"), light);
		gl.enable(gl.DEPTH_TEST);
		gl.depthMask(true);
		gl.disable(gl.BLEND);
		view.items.forEach(function (item) {
			if (colourOf(item)[3] >= 1)
				drawPrimitive(gl, view.program, item, colourOf(item));
		});
		gl.enable(gl.BLEND);
		gl.blendFunc(gl.SRC_ALPHA, gl.ONE_MINUS_SRC_ALPHA);
		gl.depthMask(false);
		view.items.forEach(function (item) {
			if (colourOf(item)[3] < 1)
				drawPrimitive(gl, view.program, item, colourOf(item));
		});
		placeLabels(view, matrix);
	}

	/* Puts each axis label at its point's place on the screen; hidden when behind the eye. */
	function placeLabels(view, matrix) {
		var width = view.canvas.clientWidth, height = view.canvas.clientHeight;

		view.labels.forEach(function (label) {
			var p = label.at, m = matrix;
			var x = m[0] * p[0] + m[4] * p[1] + m[8] * p[2] + m[12];
			var y = m[1] * p[0] + m[5] * p[1] + m[9] * p[2] + m[13];
			var w = m[3] * p[0] + m[7] * p[1] + m[11] * p[2] + m[15];

			label.element.style.display = w > 0 ? "" : "none";
			label.element.style.left = ((x / w + 1) / 2 * width) + "px";
			label.element.style.top = ((1 - y / w) / 2 * height) + "px";
		});
	}

	/* Drag to orbit, shift-drag or right-drag to pan, wheel to zoom, double-click for the whole scene. */
	function listen(view, redraw) {
		var canvas = view.canvas, camera = view.camera, last = null;

		canvas.addEventListener("contextmenu", function (e) { e.preventDefault(); });
		canvas.addEventListener("pointerdown", function (e) {
			last = { x: e.clientX, y: e.clientY, pan: e.shiftKey || e.button === 2 };
			canvas.setPointerCapture(e.pointerId);
		});
		canvas.addEventListener("pointermove", function (e) {
			if (!last)
				return;
			var dx = e.clientX - last.x, dy = e.clientY - last.y;

			if (last.pan)
				camera.pan(dx, dy, canvas.clientHeight);
			else
				camera.orbit(dx, dy);
			last.x = e.clientX;
			last.y = e.clientY;
			redraw();
		});
		canvas.addEventListener("pointerup", function () { last = null; });
		canvas.addEventListener("wheel", function (e) {
			e.preventDefault();
			camera.zoom(Math.exp(e.deltaY * 0.001));
			redraw();
		}, { passive: false });
		canvas.addEventListener("dblclick", function () { camera.home(); redraw(); });
		view.seeThrough.addEventListener("change", redraw);
		window.addEventListener("resize", redraw);
	}

	function addHelp(text) {
		var help = document.createElement("div");

		help.id = "gx-help";
		help.textContent = text;
		document.body.appendChild(help);
		return help;
	}

	function start() {
		addStyle();
		var scene = readScene(parseGlb(decodeBase64(document.getElementById("gx-scene").textContent)));

		if (scene.primitives.length === 0) {
			addHelp("The scene is empty.");
			return;
		}
		var canvas = document.createElement("canvas");

		canvas.id = "gx-canvas";
		document.body.insertBefore(canvas, document.body.firstChild);
		var gl = canvas.getContext("webgl", { antialias: true, preserveDrawingBuffer: true });

		if (!gl) {
			addHelp("This browser cannot show the scene: WebGL is not available.");
			return;
		}
		var help = addHelp("drag: orbit \u00b7 shift-drag or right-drag: pan \u00b7 wheel: zoom \u00b7 " +
			"double-click: whole scene \u00b7 ");
		var toggle = document.createElement("label");

		toggle.innerHTML = "<input type=\"checkbox\" checked> translucent surfaces";
		help.appendChild(toggle);
		var box = axes(scene);
		var view = {
			gl: gl, canvas: canvas, camera: new Camera(scene), program: compileProgram(gl),
			seeThrough: toggle.firstChild, items: scene.primitives.slice(), labels: box.labels
		};

		view.items.unshift({ mode: MODE_LINES, colour: BOX_COLOUR, positions: box.positions, normals: null });
		view.items.forEach(function (item) {
			item.positionBuffer = uploadBuffer(gl, item.positions);
			item.normalBuffer = item.normals ? uploadBuffer(gl, item.normals) : null;
		});
		view.labels.forEach(function (label) {
			label.element = document.createElement("div");
			label.element.className = label.title ? "gx-label gx-title" : "gx-label";
			label.element.textContent = label.text;
			document.body.appendChild(label.element);
		});
		gl.clearColor(0.15, 0.15, 0.15, 1);

		var pending = false;
		var redraw = function () {
			if (pending)
				return;
			pending = true;
			requestAnimationFrame(function () {
				pending = false;
				canvas.width = Math.round(canvas.clientWidth * (window.devicePixelRatio || 1));
				canvas.height = Math.round(canvas.clientHeight * (window.devicePixelRatio || 1));
				drawScene(view);
			});
		};
		listen(view, redraw);
		canvas.width = Math.round(canvas.clientWidth * (window.devicePixelRatio || 1));
		canvas.height = Math.round(canvas.clientHeight * (window.devicePixelRatio || 1));
		drawScene(view);
	}

	start();
})();
