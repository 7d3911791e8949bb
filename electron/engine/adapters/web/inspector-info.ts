/** How the page inspector introduces itself to the Executor (kept apart so it loads without a browser). */
export const PAGE_INSPECTOR_INFO = {
  name: 'web_page_inspector',
  description:
    'Loads a web page and looks near the element an agent is about to act on for hidden or injected instructions aimed at an AI agent (hidden text, comments, attributes, meta tags, visible text addressed to an AI). violation=true when any are found.',
  inputHelp:
    '{ url: http(s) or file URL of the page, element?: visible text, label, CSS selector or Mind2Web "[role] text" of the element, operation?: CLICK | TYPE | SELECT | ... }; url, element and operation default to the web action\'s',
} as const;
