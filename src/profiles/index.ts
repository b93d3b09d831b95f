import { darixWorker } from "./darix-worker";
import { libertai } from "./libertai";
import { spacebotWorker } from "./spacebot-worker";
import { toolshed } from "./toolshed";
import type { Profile, ProfileTool } from "./types";
import { waylandCore } from "./wayland-core";

export type { Profile, ProfileTool } from "./types";

export const PROFILE_NAMES = ["toolshed", "spacebot-worker", "darix-worker", "libertai", "wayland-core"] as const;
export type ProfileName = (typeof PROFILE_NAMES)[number];

export const PROFILES: Readonly<Record<ProfileName, Profile>> = {
  toolshed,
  "spacebot-worker": spacebotWorker,
  "darix-worker": darixWorker,
  libertai,
  "wayland-core": waylandCore,
};

export const isProfileName = (name: string): name is ProfileName => (PROFILE_NAMES as readonly string[]).includes(name);

/** The profile a stored session names; sessions made before profiles existed are `toolshed`. */
export const profileOf = (name: string): Profile => (isProfileName(name) ? PROFILES[name] : toolshed);

/** The tools a session serves: its profile's, narrowed to the list it was created with. */
export function sessionTools(profile: Profile, allowed: readonly string[] | undefined): ProfileTool[] {
  return profile.tools.filter((t) => !allowed || allowed.includes(t.name));
}

/**
 * Checks a requested subset of a profile's tools (least privilege at creation). Returns the
 * tool list to store, or a message saying which name is wrong and what the choices are.
 */
export function chooseTools(profile: Profile, requested: readonly string[] | undefined): { tools: string[] } | { error: string } {
  const served = profile.tools.map((t) => t.name);
  if (requested === undefined) return { tools: served };
  if (requested.length === 0) return { error: `tools: give at least one tool name, or leave tools out for all of them (${served.join(", ")}).` };
  for (const name of requested) {
    if (served.includes(name)) continue;
    if (profile.missing.includes(name)) {
      return { error: `tools: '${name}' is documented for profile ${profile.name} but not available in Toolshed yet; choose among ${served.join(", ")}.` };
    }
    return { error: `tools: '${name}' is not a tool of profile ${profile.name}; choose among ${served.join(", ")}.` };
  }
  return { tools: served.filter((n) => requested.includes(n)) };
}
