import { lazy, type Component } from "solid-js";
import NotFoundPage from "./pages/not-found";
import { SetupPage } from "./pages/setup";

export interface Match {
  page: Component<{ params: Record<string, string> }>;
  params: Record<string, string>;
}

const RunPage = lazy(() => import("./pages/run"));
const HistoryPage = lazy(() => import("./pages/history"));
const ArenaPage = lazy(() => import("./pages/arena"));
const LeaderboardPage = lazy(() => import("./pages/leaderboard"));
const ProvidersPage = lazy(() => import("./pages/providers"));
const SharedPage = lazy(() => import("./pages/shared"));
const SpendPage = lazy(() => import("./pages/spend"));
const EvaluationPage = lazy(() => import("./pages/evaluation"));
const EvaluationsPage = lazy(() => import("./pages/evaluations"));
const EvaluationNewPage = lazy(() => import("./pages/evaluation-new"));
const EvaluationComparePage = lazy(() => import("./pages/evaluation-compare"));
const PromptSetsPage = lazy(() => import("./pages/prompt-sets"));
const PresetsPage = lazy(() => import("./pages/presets"));
const GoalBattlesPage = lazy(() => import("./pages/goal-battles"));
const GoalBattlePage = lazy(() => import("./pages/goal-battle"));
const ChatPage = lazy(() => import("./pages/chat"));

const routes: [RegExp, Match["page"]][] = [
  [/^\/$/, SetupPage],
  [/^\/runs\/(?<id>[^/]+)\/?$/, RunPage],
  [/^\/history\/?$/, HistoryPage],
  [/^\/arena(?:\/(?<id>[^/]+))?\/?$/, ArenaPage],
  [/^\/chat(?:\/(?<id>[^/]+))?\/?$/, ChatPage],
  [/^\/leaderboard\/?$/, LeaderboardPage],
  [/^\/providers\/?$/, ProvidersPage],
  [/^\/spend\/?$/, SpendPage],
  [/^\/evaluations\/?$/, EvaluationsPage],
  [/^\/evaluations\/new\/?$/, EvaluationNewPage],
  [/^\/evaluations\/compare\/?$/, EvaluationComparePage],
  [/^\/evaluations\/(?<id>[^/]+)\/?$/, EvaluationPage],
  [/^\/prompt-sets\/?$/, PromptSetsPage],
  [/^\/presets\/?$/, PresetsPage],
  [/^\/goal-battles\/?$/, GoalBattlesPage],
  [/^\/goal-battles\/(?<id>[^/]+)\/?$/, GoalBattlePage],
  [/^\/shared\/(?<token>[A-Za-z0-9_-]+)\/?$/, SharedPage],
];

export function matchRoute(path: string): Match {
  for (const [pattern, page] of routes) {
    const m = pattern.exec(path);
    if (m) return { page, params: { ...m.groups } };
  }
  return { page: NotFoundPage, params: {} };
}
