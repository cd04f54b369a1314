// tau_env HTML report: opens the conversation of a clicked task in the viewer dialog.
// Episodes are parsed from the embedded JSON on first use. Every string from the store is
// inserted with textContent, never as markup.
"use strict";
(() => {
  const byId = (id) => document.getElementById(id);
  const viewer = byId("viewer");
  const LONG_CHARS = 1500; // a text block longer than this, or than LONG_LINES, is folded
  const LONG_LINES = 24;
  let episodes = null;
  let current = { indices: [], pick: 0 };

  const episode = (index) => {
    episodes ??= JSON.parse(byId("episodes").textContent);
    return episodes[index];
  };

  function node(tag, className, content) {
    const element = document.createElement(tag);
    if (className) element.className = className;
    if (content !== undefined && content !== null) element.textContent = String(content);
    return element;
  }

  function pretty(content) {
    if (typeof content !== "string") return JSON.stringify(content, null, 2);
    const trimmed = content.trim();
    if (trimmed.startsWith("{") || trimmed.startsWith("[")) {
      try {
        return JSON.stringify(JSON.parse(trimmed), null, 2);
      } catch {
        return content;
      }
    }
    return content;
  }

  function block(content, className) {
    const pre = node("pre", className, content);
    const lines = content.split("\n").length;
    if (content.length <= LONG_CHARS && lines <= LONG_LINES) return pre;
    const details = node("details", "long");
    const head = content.replace(/\s+/g, " ").slice(0, 100);
    details.append(node("summary", null, `${head}… (${lines} lines, ${content.length} chars)`), pre);
    return details;
  }

  function label(message) {
    if (message.role === "tool") {
      const name = message.name ? `: ${message.name}` : "";
      return `tool result${name}${message.error ? " (error)" : ""}`;
    }
    return message.role === "assistant" ? "agent" : "user";
  }

  function messageItem(message, side) {
    const own = message.role !== "tool" && (message.role === "assistant") === (side === "agent");
    const classes = ["msg", message.role, own ? "own" : "other"];
    if (message.error) classes.push("error");
    const item = node("li", classes.join(" "));
    item.append(node("div", "who", label(message)));
    if (message.role === "tool") {
      item.append(block(pretty(message.content ?? ""), "result"));
      return item;
    }
    if (message.content) item.append(block(String(message.content), "text"));
    for (const call of message.tool_calls ?? []) {
      const args = JSON.stringify(call.arguments ?? {});
      item.append(block(`→ ${call.name}(${args})`, "call"));
    }
    if (message.request && side === "user") {
      item.append(block(`structured request: ${JSON.stringify(message.request)}`, "request"));
    }
    return item;
  }

  function renderGrade(ep) {
    const grade = ep.grade ?? {};
    const section = byId("viewer-grade");
    section.replaceChildren();
    const judged = ep.reward !== null && ep.reward !== undefined;
    const summary = node("p", `outcome ${ep.success ? "pass" : judged ? "fail" : "unjudged"}`);
    summary.append(
      node("strong", null, judged ? `reward ${Number(ep.reward).toFixed(3)}` : "not judged: no reward yet"),
      node("span", null, ` · ${ep.termination} · ${ep.steps} steps · ${Number(ep.duration).toFixed(2)} s`),
      node("span", null, ` · agent ${ep.agent} · user ${ep.user} · seed ${ep.seed}`),
    );
    section.append(summary);
    const chips = node("p", "chips");
    chips.append(node("span", null, grade.reward_basis ? "basis: " : "not graded (ended early)"));
    for (const [name, value] of Object.entries(grade.breakdown ?? {})) {
      chips.append(node("span", `chip ${value >= 1 - 1e-6 ? "pass" : "fail"}`, `${name} ${value}`));
    }
    section.append(chips);
    for (const note of [grade.note, ep.note]) {
      if (note) section.append(node("p", "note", note));
    }
    if ((grade.not_judged ?? []).length) {
      section.append(node("p", "note", `not judged: ${grade.not_judged.join(", ")}`));
    }
    const checks = Object.values(grade.checks ?? {});
    if (checks.length) {
      const details = node("details", "checks");
      details.append(node("summary", null, `grader details (${checks.length} checks)`));
      for (const check of checks) {
        details.append(block(`${check.component}: ${check.reward}\n${pretty(check.details ?? [])}`, "check"));
      }
      section.append(details);
    }
  }

  function renderTrials() {
    const nav = byId("viewer-trials");
    nav.replaceChildren();
    current.indices.forEach((index, trial) => {
      const ep = episode(index);
      const outcome = ep.success ? "pass" : ep.reward === null ? "unjudged" : "fail";
      const button = node("button", `trial ${outcome}`, `trial ${ep.trial}`);
      button.type = "button";
      button.dataset.pick = String(trial);
      if (trial === current.pick) button.setAttribute("aria-current", "true");
      nav.append(button);
    });
  }

  function show(indices, pick) {
    current = { indices, pick };
    const ep = episode(indices[pick]);
    byId("viewer-title").textContent = `${ep.task} · trial ${ep.trial} · ${ep.run}`;
    renderTrials();
    renderGrade(ep);
    for (const [side, tag] of [["agent", "a"], ["user", "u"]]) {
      const list = byId(`${side}-view`);
      list.replaceChildren(
        ...ep.messages.filter((m) => m.seen.includes(tag)).map((m) => messageItem(m, side)),
      );
    }
    if (!viewer.open) viewer.showModal();
    viewer.scrollTop = 0;
  }

  document.addEventListener("click", (event) => {
    const button = event.target.closest("button");
    if (!button) return;
    if (button.id === "viewer-close") {
      viewer.close();
      return;
    }
    if (button.parentElement?.id === "viewer-trials") {
      show(current.indices, Number(button.dataset.pick));
      return;
    }
    const row = button.closest("tr[data-eps]");
    if (!row) return;
    const indices = row.dataset.eps.split(",").map(Number);
    show(indices, Number(button.classList.contains("trial") ? button.dataset.trial : row.dataset.pick));
  });

  document.documentElement.dataset.ready = "true";
  performance.mark("tau-report-ready");
})();
