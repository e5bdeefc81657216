// A time left in words: "2 days 3 hours", "5 hours 10 minutes", "4 minutes"
// (the two largest units, counted with the language's plural forms).

import { t } from "./i18n.js";

export function durationText(seconds) {
  const minutes = Math.floor(seconds / 60);
  const days = Math.floor(minutes / 1440);
  const hours = Math.floor((minutes % 1440) / 60);
  const mins = minutes % 60;
  if (days > 0) return [t("corr.days", { n: days }), hours ? t("corr.hours", { n: hours }) : ""].join(" ").trim();
  if (hours > 0) return [t("corr.hours", { n: hours }), mins ? t("corr.minutes", { n: mins }) : ""].join(" ").trim();
  return t("corr.minutes", { n: Math.max(1, mins) });
}
