import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { z } from 'zod';
import type { AppContext } from '../../platform/context.ts';
import { defineRoute } from '../../platform/http/route.ts';

/**
 * The job dashboard at `/schedule` (SPEC §2: an embedded page at the API host, shown by the web app at
 * `/platform/job/dashboard`). A static page without data: its script takes the signed-in user's access token
 * from the web app's storage (same origin, keys `{host}:access-token` / `{host}:x-access-token`, refreshed
 * the way the web app does) and calls `/api/sysJob/*`, so it shows nothing to a visitor without a super-admin
 * session. Language and dark mode follow the web app's theme config (`{host}:themeConfig`).
 */

const STYLE = `
:root{--bg:#f5f7fa;--card:#fff;--text:#1f2329;--muted:#646a73;--line:#e5e6eb;--primary:#1677ff;--ok:#389e0d;
--okbg:#f6ffed;--bad:#cf1322;--badbg:#fff1f0;--warn:#d46b08;--warnbg:#fff7e6;--idle:#595959;--idlebg:#f5f5f5;
--runbg:#e6f4ff;--focus:#1677ff}
:root.dark{--bg:#141414;--card:#1f1f1f;--text:#e8e8e8;--muted:#a6a6a6;--line:#303030;--primary:#4096ff;--ok:#73d13d;
--okbg:#162312;--bad:#ff7875;--badbg:#2a1215;--warn:#ffa940;--warnbg:#2b1d11;--idle:#bfbfbf;--idlebg:#262626;
--runbg:#111a2c}
*{box-sizing:border-box}
body{margin:0;background:var(--bg);color:var(--text);font:14px/1.5 -apple-system,BlinkMacSystemFont,"Segoe UI",
"PingFang SC","Hiragino Sans GB","Microsoft YaHei","Noto Sans CJK SC",sans-serif}
main{max-width:1680px;margin:0 auto;padding:16px}
header{display:flex;flex-wrap:wrap;align-items:center;gap:8px 16px;margin-bottom:12px}
h1{font-size:18px;margin:0;font-weight:600}
h2{font-size:15px;margin:0;font-weight:600}
.spacer{flex:1}
.muted{color:var(--muted)}
.small{font-size:12px}
.cards{display:grid;grid-template-columns:repeat(auto-fit,minmax(150px,1fr));gap:12px;margin-bottom:12px}
.card{background:var(--card);border:1px solid var(--line);border-radius:8px;padding:12px 16px}
.card b{display:block;font-size:22px;font-weight:600;margin-top:2px}
.grid{display:grid;grid-template-columns:minmax(0,3fr) minmax(0,2fr);gap:12px}
@media (max-width:1200px){.grid{grid-template-columns:minmax(0,1fr)}}
section{background:var(--card);border:1px solid var(--line);border-radius:8px;margin-bottom:12px;min-width:0}
section>.head{display:flex;align-items:center;gap:8px;padding:10px 16px;border-bottom:1px solid var(--line)}
.scroll{overflow:auto}
table{width:100%;border-collapse:collapse}
th,td{text-align:left;padding:8px 12px;border-bottom:1px solid var(--line);vertical-align:top}
th{font-weight:500;color:var(--muted);white-space:nowrap;font-size:13px}
tr:last-child td{border-bottom:0}
td.nowrap{white-space:nowrap}
.mono{font-family:ui-monospace,SFMono-Regular,Consolas,"Liberation Mono",monospace;font-size:12px}
.tag{display:inline-block;padding:0 8px;border-radius:4px;font-size:12px;line-height:20px;white-space:nowrap;
border:1px solid transparent}
.tag.ok{color:var(--ok);background:var(--okbg)}
.tag.bad{color:var(--bad);background:var(--badbg)}
.tag.warn{color:var(--warn);background:var(--warnbg)}
.tag.idle{color:var(--idle);background:var(--idlebg)}
.tag.run{color:var(--primary);background:var(--runbg)}
.trigger{display:flex;flex-wrap:wrap;gap:4px 8px;align-items:center;margin-bottom:4px}
.trigger:last-child{margin-bottom:0}
.actions{display:flex;flex-wrap:wrap;gap:6px}
td.ops{width:1%}
td.ops .actions{flex-wrap:nowrap}
button{font:inherit;font-size:13px;border:1px solid var(--line);background:var(--card);color:var(--text);
border-radius:6px;padding:2px 10px;cursor:pointer;line-height:22px;white-space:nowrap}
button:hover:not(:disabled){border-color:var(--primary);color:var(--primary)}
button.primary{background:var(--primary);border-color:var(--primary);color:#fff}
button.primary:hover:not(:disabled){color:#fff;opacity:.9}
button.danger{color:var(--bad)}
button.danger:hover:not(:disabled){border-color:var(--bad);color:var(--bad)}
button:disabled{opacity:.45;cursor:not-allowed}
button:focus-visible,a:focus-visible,input:focus-visible{outline:2px solid var(--focus);outline-offset:1px}
label{display:inline-flex;align-items:center;gap:4px;cursor:pointer}
.clip{max-width:300px;overflow:hidden;text-overflow:ellipsis;white-space:nowrap}
.state{padding:32px 16px;text-align:center;color:var(--muted)}
.notice{padding:48px 24px;text-align:center}
.notice h2{margin-bottom:8px}
.toast{position:fixed;right:16px;bottom:16px;max-width:420px;padding:10px 14px;border-radius:6px;
background:var(--card);border:1px solid var(--line);box-shadow:0 6px 16px rgba(0,0,0,.12)}
.toast.bad{border-color:var(--bad);color:var(--bad)}
.hidden{display:none}
`;

const SCRIPT = `
'use strict';
(function () {
  var TEXT = {
    'zh-CN': {
      title: '任务看板', refreshed: '更新于 {0}', auto: '自动刷新', refresh: '刷新', loading: '加载中…',
      jobs: '作业', records: '最近运行记录', cluster: '集群节点', total: '作业总数', runningNow: '正在运行',
      triggersOn: '运行中的触发器', triggersOff: '已暂停的触发器', failures: '最近失败',
      job: '作业', kind: '类型', builtIn: '内置', http: 'HTTP', triggers: '触发器', state: '状态', actions: '操作',
      next: '下次', last: '上次', runs: '次数 {0} / 错误 {1}', none: '无', noTriggers: '没有触发器',
      running: '运行中', idle: '空闲', trRunning: '运行', trPaused: '已暂停', trEnded: '已结束',
      every: '每 {0} 秒', run: '立即执行', pause: '暂停', start: '启动', cancel: '取消运行',
      time: '开始时间', manual: '手动', schedule: '调度', elapsed: '耗时',
      result: '结果', status: '状态', succeeded: '成功', failed: '失败', cancelled: '已取消',
      node: '节点', host: '主机', pid: '进程', version: '版本', heartbeat: '心跳', leader: '主节点', self: '本节点',
      online: '在线', offline: '离线', empty: '暂无数据', noJobs: '还没有作业', noRecords: '还没有运行记录',
      noCluster: '没有节点上报心跳（调度未在此服务上启用）',
      signIn: '请先登录', signInHint: '任务看板使用数智后台的登录状态：请在同一站点登录后再打开本页。',
      expired: '登录已过期，请重新登录后再打开本页。', forbidden: '没有权限',
      forbiddenHint: '只有平台超级管理员可以查看和管理定时任务。', loadFailed: '加载失败：{0}', retry: '重试',
      confirmPause: '暂停作业“{0}”的全部触发器？', confirmCancel: '取消作业“{0}”正在进行的运行？',
      started: '已开始执行，记录编号 {0}', done: '操作成功', network: '网络错误，请稍后重试'
    },
    en: {
      title: 'Job dashboard', refreshed: 'Updated {0}', auto: 'Auto refresh', refresh: 'Refresh', loading: 'Loading…',
      jobs: 'Jobs', records: 'Recent runs', cluster: 'Cluster', total: 'Jobs', runningNow: 'Running now',
      triggersOn: 'Running triggers', triggersOff: 'Paused triggers', failures: 'Recent failures',
      job: 'Job', kind: 'Kind', builtIn: 'Built-in', http: 'HTTP', triggers: 'Triggers', state: 'State',
      actions: 'Actions', next: 'Next', last: 'Last', runs: 'Runs {0} / errors {1}', none: 'none',
      noTriggers: 'No triggers', running: 'Running', idle: 'Idle', trRunning: 'Running', trPaused: 'Paused',
      trEnded: 'Ended', every: 'Every {0} s', run: 'Run now', pause: 'Pause', start: 'Start', cancel: 'Cancel run',
      time: 'Started', manual: 'Manual', schedule: 'Scheduled',
      elapsed: 'Duration', result: 'Result', status: 'Status', succeeded: 'Succeeded', failed: 'Failed',
      cancelled: 'Cancelled', node: 'Node', host: 'Host', pid: 'PID', version: 'Version', heartbeat: 'Heartbeat',
      leader: 'Leader', self: 'This node', online: 'Online', offline: 'Offline', empty: 'No data',
      noJobs: 'No jobs yet', noRecords: 'No runs yet',
      noCluster: 'No node reports a heartbeat (the scheduler is not switched on for this server)',
      signIn: 'Please sign in', signInHint: 'The job dashboard uses your Shuzhi session: sign in on this site, then open this page again.',
      expired: 'Your session has ended. Sign in again, then open this page again.', forbidden: 'No permission',
      forbiddenHint: 'Only the platform super admin can see and manage scheduled jobs.', loadFailed: 'Could not load: {0}',
      retry: 'Retry', confirmPause: 'Pause every trigger of job "{0}"?',
      confirmCancel: 'Cancel the run of job "{0}" that is going on?', started: 'Started, run record {0}',
      done: 'Done', network: 'Network error, please try again later'
    },
    'zh-TW': {
      title: '任務看板', refreshed: '更新於 {0}', auto: '自動重新整理', refresh: '重新整理', loading: '載入中…',
      jobs: '作業', records: '最近執行記錄', cluster: '叢集節點', total: '作業總數', runningNow: '正在執行',
      triggersOn: '執行中的觸發器', triggersOff: '已暫停的觸發器', failures: '最近失敗',
      job: '作業', kind: '類型', builtIn: '內建', http: 'HTTP', triggers: '觸發器', state: '狀態', actions: '操作',
      next: '下次', last: '上次', runs: '次數 {0} / 錯誤 {1}', none: '無', noTriggers: '沒有觸發器',
      running: '執行中', idle: '閒置', trRunning: '執行', trPaused: '已暫停', trEnded: '已結束',
      every: '每 {0} 秒', run: '立即執行', pause: '暫停', start: '啟動', cancel: '取消執行',
      time: '開始時間', manual: '手動', schedule: '排程', elapsed: '耗時',
      result: '結果', status: '狀態', succeeded: '成功', failed: '失敗', cancelled: '已取消',
      node: '節點', host: '主機', pid: '行程', version: '版本', heartbeat: '心跳', leader: '主節點', self: '本節點',
      online: '線上', offline: '離線', empty: '暫無資料', noJobs: '還沒有作業', noRecords: '還沒有執行記錄',
      noCluster: '沒有節點回報心跳（此服務未啟用排程）',
      signIn: '請先登入', signInHint: '任務看板使用數智後台的登入狀態：請在同一站台登入後再開啟本頁。',
      expired: '登入已逾期，請重新登入後再開啟本頁。', forbidden: '沒有權限',
      forbiddenHint: '只有平台超級管理員可以檢視和管理排程作業。', loadFailed: '載入失敗：{0}', retry: '重試',
      confirmPause: '暫停作業「{0}」的全部觸發器？', confirmCancel: '取消作業「{0}」正在進行的執行？',
      started: '已開始執行，記錄編號 {0}', done: '操作成功', network: '網路錯誤，請稍後再試'
    }
  };
  var LANGS = { 'zh-cn': 'zh-CN', en: 'en', 'zh-tw': 'zh-TW' };
  var host = window.location.host;
  var ACCESS = host + ':access-token';
  var REFRESH = host + ':x-access-token';
  var THEME = host + ':themeConfig';
  var REFRESH_MS = 5000;

  function read(key) { try { return window.localStorage.getItem(key); } catch (e) { return null; } }
  function write(key, value) { try { window.localStorage.setItem(key, value); } catch (e) { /* private mode */ } }
  function theme() {
    try { var t = JSON.parse(read(THEME) || '{}'); return (t && t.state) || {}; } catch (e) { return {}; }
  }
  var settings = theme();
  // The web app's language setting; Chinese when it cannot be read.
  var locale = LANGS[String(settings.globalI18n || '').toLowerCase()] || 'zh-CN';
  // The product's time zone (the page's meta): times show on its clock, not the browser's.
  var ZONE = document.querySelector('meta[name="time-zone"]').getAttribute('content');
  var T = TEXT[locale];
  document.documentElement.lang = locale;
  if (settings.isIsDark) document.documentElement.classList.add('dark');
  document.title = T.title;

  function t(key) {
    var text = T[key] || key;
    for (var i = 1; i < arguments.length; i++) text = text.split('{' + (i - 1) + '}').join(String(arguments[i]));
    return text;
  }
  function h(tag, attrs, children) {
    var el = document.createElement(tag);
    if (attrs) for (var k in attrs) {
      if (attrs[k] === null || attrs[k] === undefined || attrs[k] === false) continue;
      if (k === 'text') el.textContent = attrs[k];
      else if (k === 'onclick') el.addEventListener('click', attrs[k]);
      else if (k === 'class') el.className = attrs[k];
      else el.setAttribute(k, attrs[k] === true ? '' : attrs[k]);
    }
    (children || []).forEach(function (c) {
      if (c === null || c === undefined || c === false) return;
      el.appendChild(typeof c === 'string' ? document.createTextNode(c) : c);
    });
    return el;
  }
  function tag(kind, text) { return h('span', { class: 'tag ' + kind, text: text }); }

  function jwtExpired(token) {
    try {
      var part = token.split('.')[1].replace(/-/g, '+').replace(/_/g, '/');
      var exp = JSON.parse(atob(part)).exp;
      return typeof exp === 'number' && exp * 1000 <= Date.now() + 5000;
    } catch (e) { return false; }
  }

  function AuthError(status) { this.status = status; }

  /** The API through the web app's session: the token pair refreshed and stored back as the web app does. */
  function api(method, path, body) {
    var access = read(ACCESS);
    if (!access) return Promise.reject(new AuthError(401));
    var headers = { 'Authorization': 'Bearer ' + access, 'Accept-Language': locale };
    var refresh = read(REFRESH);
    if (refresh && jwtExpired(access)) headers['X-Authorization'] = 'Bearer ' + refresh;
    if (body !== undefined) headers['Content-Type'] = 'application/json;charset=utf-8';
    return fetch(path, {
      method: method, headers: headers, credentials: 'same-origin',
      body: body === undefined ? undefined : JSON.stringify(body)
    }).then(function (response) {
      var newAccess = response.headers.get('access-token');
      var newRefresh = response.headers.get('x-access-token');
      if (newAccess === 'invalid_token') throw new AuthError(401);
      if (newAccess && newRefresh && newRefresh !== 'invalid_token') {
        write(ACCESS, newAccess);
        write(REFRESH, newRefresh);
        document.cookie = 'access-token=' + encodeURIComponent(newAccess) + '; path=/; SameSite=Lax';
      }
      if (response.status === 401 || response.status === 403) throw new AuthError(response.status);
      return response.json().then(function (envelope) {
        if (envelope.code === 401 || envelope.code === 403) throw new AuthError(envelope.code);
        if (envelope.code !== 200) throw new Error(envelope.message || String(envelope.code));
        return envelope.result;
      });
    }, function () { throw new Error(t('network')); });
  }

  var root = document.getElementById('app');
  var state = { jobs: null, records: null, cluster: null, busy: {}, updated: null, error: null, auth: 0 };
  var auto = true;
  var timer = null;
  var toastTimer = null;

  function toast(message, bad) {
    var el = document.getElementById('toast');
    el.textContent = message;
    el.className = 'toast' + (bad ? ' bad' : '');
    el.setAttribute('role', bad ? 'alert' : 'status');
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { el.className = 'toast hidden'; }, 4000);
  }

  function load() {
    return Promise.all([
      api('GET', '/api/sysJob/pageJobDetail?page=1&pageSize=200'),
      api('GET', '/api/sysJob/pageJobTriggerRecord?page=1&pageSize=20'),
      api('GET', '/api/sysJob/clusterList')
    ]).then(function (r) {
      state.jobs = r[0].items; state.records = r[1].items; state.cluster = r[2];
      state.updated = new Date(); state.error = null; state.auth = 0;
    }, function (error) {
      if (error instanceof AuthError) state.auth = error.status;
      else state.error = error.message || String(error);
    }).then(render, render);
  }

  function schedule() {
    clearTimeout(timer);
    if (auto && !state.auth) timer = setTimeout(function () {
      if (document.hidden) return schedule();
      load().then(schedule);
    }, REFRESH_MS);
  }

  function act(jobId, action, confirmText) {
    if (confirmText && !window.confirm(confirmText)) return;
    state.busy[jobId] = true;
    render();
    api('POST', '/api/sysJob/' + action, { jobId: jobId }).then(function (result) {
      toast(result && result.recordId ? t('started', result.recordId) : t('done'), false);
    }, function (error) {
      if (error instanceof AuthError) state.auth = error.status;
      else toast(error.message || String(error), true);
    }).then(function () {
      delete state.busy[jobId];
      return load();
    });
  }

  function triggerText(tr) {
    return tr.triggerType === 'cron' ? tr.cron : t('every', tr.periodSeconds);
  }
  function triggerTag(tr) {
    if (tr.status === 1) return tag('ok', t('trRunning'));
    if (tr.status === 2) return tag('warn', t('trPaused'));
    return tag('idle', t('trEnded'));
  }
  function recordTag(status) {
    var kinds = { running: 'run', succeeded: 'ok', failed: 'bad', cancelled: 'warn' };
    return tag(kinds[status] || 'idle', t(status));
  }
  function elapsed(ms) {
    if (ms === null || ms === undefined) return '';
    return ms < 1000 ? ms + ' ms' : (ms / 1000).toFixed(ms < 10000 ? 2 : 1) + ' s';
  }
  function empty(cols, text) {
    return h('tr', null, [h('td', { colspan: String(cols), class: 'state', text: text })]);
  }
  function table(headers, rows) {
    return h('div', { class: 'scroll' }, [h('table', null, [
      h('thead', null, [h('tr', null, headers.map(function (x) { return h('th', { scope: 'col', text: x }); }))]),
      h('tbody', null, rows)
    ])]);
  }

  function jobRows() {
    if (!state.jobs.length) return [empty(5, t('noJobs'))];
    return state.jobs.map(function (job) {
      var busy = !!state.busy[job.jobId];
      var anyOn = job.triggers.some(function (x) { return x.status === 1; });
      var anyOff = job.triggers.some(function (x) { return x.status !== 1; });
      var triggers = job.triggers.length ? job.triggers.map(function (tr) {
        return h('div', { class: 'trigger' }, [
          triggerTag(tr),
          h('span', { class: 'mono', text: tr.triggerId + ' · ' + triggerText(tr) }),
          h('span', { class: 'muted small', text: t('next') + ' ' + (tr.nextRunTime || t('none')) }),
          h('span', { class: 'muted small', text: t('last') + ' ' + (tr.lastRunTime || t('none')) }),
          h('span', { class: 'muted small', text: t('runs', tr.numberOfRuns, tr.numberOfErrors) })
        ]);
      }) : [h('span', { class: 'muted', text: t('noTriggers') })];
      return h('tr', null, [
        h('td', null, [
          h('div', { class: 'mono', text: job.jobId }),
          h('div', { class: 'muted small', text: job.description || '' })
        ]),
        h('td', { class: 'nowrap' }, [tag('idle', job.createType === 2 ? t('http') : t('builtIn'))]),
        h('td', null, triggers),
        h('td', { class: 'nowrap' }, [job.running ? tag('run', t('running')) : tag('idle', t('idle'))]),
        h('td', { class: 'ops' }, [h('div', { class: 'actions' }, [
          h('button', { type: 'button', id: 'run-' + job.jobId, class: 'primary', disabled: busy || (job.running && !job.concurrent),
            text: t('run'), onclick: function () { act(job.jobId, 'runJob'); } }),
          h('button', { type: 'button', id: 'start-' + job.jobId, disabled: busy || !anyOff, text: t('start'),
            onclick: function () { act(job.jobId, 'startJob'); } }),
          h('button', { type: 'button', id: 'pause-' + job.jobId, disabled: busy || !anyOn, text: t('pause'),
            onclick: function () { act(job.jobId, 'pauseJob', t('confirmPause', job.jobId)); } }),
          job.running ? h('button', { type: 'button', id: 'cancel-' + job.jobId, class: 'danger', disabled: busy, text: t('cancel'),
            onclick: function () { act(job.jobId, 'cancelJob', t('confirmCancel', job.jobId)); } }) : null
        ])])
      ]);
    });
  }

  function recordRows() {
    if (!state.records.length) return [empty(5, t('noRecords'))];
    return state.records.map(function (r) {
      var detail = r.error || r.result || '';
      return h('tr', null, [
        h('td', { class: 'nowrap mono', text: r.startTime }),
        h('td', null, [h('div', { class: 'mono', text: r.jobId }),
          h('div', { class: 'muted small', text: r.source === 'manual'
            ? t('manual') + (r.createUserName ? ' · ' + r.createUserName : '')
            : t('schedule') + (r.triggerId ? ' · ' + r.triggerId : '') })]),
        h('td', { class: 'nowrap' }, [recordTag(r.status)]),
        h('td', { class: 'nowrap', text: elapsed(r.elapsedMs) }),
        h('td', null, [h('div', { class: 'clip mono small', title: detail, text: detail.split('\\n').join(' ') })])
      ]);
    });
  }

  function clusterRows() {
    if (!state.cluster.length) return [empty(5, t('noCluster'))];
    return state.cluster.map(function (n) {
      return h('tr', null, [
        h('td', null, [h('div', { class: 'mono small', text: n.nodeId }),
          h('div', { class: 'actions' }, [n.isLeader ? tag('run', t('leader')) : null, n.isSelf ? tag('idle', t('self')) : null])]),
        h('td', { class: 'nowrap' }, [n.status === 1 ? tag('ok', t('online')) : tag('idle', t('offline'))]),
        h('td', { class: 'nowrap small', text: (n.host || '') + ' · ' + (n.pid || '') }),
        h('td', { class: 'nowrap small', text: n.version || '' }),
        h('td', { class: 'nowrap mono', text: n.heartbeatTime })
      ]);
    });
  }

  function header() {
    var checkbox = h('input', { type: 'checkbox', id: 'auto' });
    checkbox.checked = auto;
    checkbox.addEventListener('change', function () { auto = checkbox.checked; schedule(); });
    return h('header', null, [
      h('h1', { text: t('title') }),
      h('span', { class: 'muted small', 'aria-live': 'polite',
        text: state.updated ? t('refreshed', state.updated.toLocaleTimeString(locale, { timeZone: ZONE })) : '' }),
      h('span', { class: 'spacer' }),
      h('label', { for: 'auto' }, [checkbox, t('auto')]),
      h('button', { type: 'button', id: 'refresh', text: t('refresh'), onclick: function () { load().then(schedule); } })
    ]);
  }

  function render() {
    // Every few seconds the page is drawn again: keyboard focus stays on the same control.
    var active = document.activeElement && document.activeElement.id;
    root.textContent = '';
    if (state.auth) {
      var forbidden = state.auth === 403;
      var hadToken = !!read(ACCESS);
      root.appendChild(h('div', { class: 'card notice', role: 'alert' }, [
        h('h2', { text: forbidden ? t('forbidden') : t('signIn') }),
        h('p', { class: 'muted', text: forbidden ? t('forbiddenHint') : hadToken ? t('expired') : t('signInHint') })
      ]));
      return;
    }
    root.appendChild(header());
    if (state.error && !state.jobs) {
      root.appendChild(h('div', { class: 'card notice', role: 'alert' }, [
        h('p', { text: t('loadFailed', state.error) }),
        h('button', { type: 'button', text: t('retry'), onclick: function () { load().then(schedule); } })
      ]));
      return;
    }
    if (!state.jobs) {
      root.appendChild(h('div', { class: 'card state', role: 'status', text: t('loading') }));
      return;
    }
    if (state.error) root.appendChild(h('div', { class: 'toast bad', role: 'alert', text: t('loadFailed', state.error) }));
    var triggers = [];
    state.jobs.forEach(function (j) { triggers = triggers.concat(j.triggers); });
    var cards = [
      [t('total'), state.jobs.length],
      [t('runningNow'), state.jobs.filter(function (j) { return j.running; }).length],
      [t('triggersOn'), triggers.filter(function (x) { return x.status === 1; }).length],
      [t('triggersOff'), triggers.filter(function (x) { return x.status === 2; }).length],
      [t('failures'), state.records.filter(function (r) { return r.status === 'failed'; }).length]
    ];
    root.appendChild(h('div', { class: 'cards' }, cards.map(function (c) {
      return h('div', { class: 'card' }, [h('span', { class: 'muted', text: c[0] }), h('b', { text: String(c[1]) })]);
    })));
    root.appendChild(h('section', { 'aria-labelledby': 'jobs-title' }, [
      h('div', { class: 'head' }, [h('h2', { id: 'jobs-title', text: t('jobs') })]),
      table([t('job'), t('kind'), t('triggers'), t('state'), t('actions')], jobRows())
    ]));
    root.appendChild(h('div', { class: 'grid' }, [
      h('section', { 'aria-labelledby': 'records-title' }, [
        h('div', { class: 'head' }, [h('h2', { id: 'records-title', text: t('records') })]),
        table([t('time'), t('job'), t('status'), t('elapsed'), t('result')], recordRows())
      ]),
      h('section', { 'aria-labelledby': 'cluster-title' }, [
        h('div', { class: 'head' }, [h('h2', { id: 'cluster-title', text: t('cluster') })]),
        table([t('node'), t('status'), t('host') + ' · ' + t('pid'), t('version'), t('heartbeat')], clusterRows())
      ])
    ]));
    if (active) { var again = document.getElementById(active); if (again) again.focus(); }
  }

  render();
  load().then(schedule);
  document.addEventListener('visibilitychange', function () { if (!document.hidden && auto) load().then(schedule); });
  window.addEventListener('storage', function (event) {
    if (event.key === THEME) { window.location.reload(); }
    else if (event.key === ACCESS && state.auth) { state.auth = 0; load().then(schedule); }
  });
})();
`;

const hash = (text: string) => `'sha256-${createHash('sha256').update(text).digest('base64')}'`;

const page = (timeZone: string) => `<!doctype html>
<html lang="zh-CN">
<head>
<meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1">
<meta name="referrer" content="no-referrer">
<meta name="time-zone" content="${timeZone}">
<link rel="icon" href="data:,">
<title>任务看板</title>
<style>${STYLE}</style>
</head>
<body>
<main id="app" aria-live="polite"></main>
<div id="toast" class="toast hidden" role="status"></div>
<script>${SCRIPT}</script>
</body>
</html>
`;

/**
 * Only this page's own script and style run (by hash); it talks to its own origin only; it may be framed by
 * the web app (same origin) and, when the web app itself is embedded by a portal, by that portal too (browsers
 * check every ancestor against frame-ancestors).
 */
function contentSecurityPolicy(frameAncestors: readonly string[]): string {
  const ancestors = [...new Set(["'self'", ...frameAncestors.filter((a) => a !== "'none'")])];
  return [
    "default-src 'none'",
    `script-src ${hash(SCRIPT)}`,
    `style-src ${hash(STYLE)}`,
    "connect-src 'self'",
    "img-src 'self' data:",
    "base-uri 'none'",
    "form-action 'none'",
    `frame-ancestors ${ancestors.join(' ')}`,
  ].join('; ');
}

export function dashboardRoute(app: FastifyInstance, ctx: AppContext): void {
  const csp = contentSecurityPolicy(ctx.config.frameAncestors);
  const sameOriginOnly = !csp.includes("frame-ancestors 'self' ");
  // The zone is an IANA name (letters, digits, _ + - /: checked at start), safe inside an attribute.
  const html = page(ctx.config.timeZone);
  defineRoute(app, ctx, {
    method: 'GET',
    url: '/schedule',
    access: 'public',
    raw: true,
    summary:
      'The job dashboard page: static, no data; its script calls /api/sysJob/* with the web app’s session',
    tags: ['sysJob'],
    response: z.unknown(),
    handler: ({ reply }) => {
      reply.header('content-security-policy', csp);
      if (sameOriginOnly) reply.header('x-frame-options', 'SAMEORIGIN');
      return reply.header('cache-control', 'no-cache').type('text/html; charset=utf-8').send(html);
    },
  });
}
