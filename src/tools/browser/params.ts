import { z } from "zod";

// Names, texts and defaults as the seed pages (000/001) document the browser tool.

const ACTIONS = ["launch", "navigate", "open", "tabs", "focus", "close_tab", "snapshot", "act", "screenshot", "evaluate", "content", "close"] as const;
const ACT_KINDS = ["click", "type", "press_key", "hover", "scroll_into_view", "focus"] as const;

export const browserParams = z.object({
  action: z
    .enum(ACTIONS)
    .describe(
      'The browser action to perform:\n  • "launch": Start the browser (required before other actions)\n  • "navigate": Navigate to a URL\n  • "open": Open a new tab\n  • "tabs": List all open tabs\n  • "focus": Switch to a tab by target ID\n  • "close_tab": Close a tab\n  • "snapshot": Get accessibility tree with element references\n  • "act": Interact with an element\n  • "screenshot": Capture a screenshot\n  • "evaluate": Run JavaScript (if enabled)\n  • "content": Get page HTML\n  • "close": Shut down the browser',
    ),
  url: z
    .string()
    .optional()
    .describe("URL for navigate/open actions. Must be http or https. Private/loopback IPs and cloud metadata endpoints are blocked for security."),
  target_id: z.string().optional().describe("Tab target ID for focus/close_tab actions"),
  element_ref: z.string().optional().describe("Element reference from snapshot (e.g., “e3”) for act/screenshot actions"),
  act_kind: z
    .enum(ACT_KINDS)
    .optional()
    .describe(
      'Kind of interaction for the act action:\n  • "click": Click an element\n  • "type": Type text into an element\n  • "press_key": Press a keyboard key (e.g., “Enter”, “Tab”)\n  • "hover": Hover over an element\n  • "scroll_into_view": Scroll element into viewport\n  • "focus": Focus an element',
    ),
  text: z.string().optional().describe("Text to type for act:type"),
  key: z.string().optional().describe("Key to press for act:press_key (e.g., “Enter”, “Tab”, “Escape”)"),
  full_page: z.boolean().default(false).describe("Take full-page screenshot instead of viewport only"),
  script: z.string().optional().describe("JavaScript expression to evaluate (requires evaluate_enabled in config)"),
});

export type BrowserArgs = z.output<typeof browserParams>;
