/** A goal battle's shapes, as the Worker's own schemas give them (worker/shared/goal-battle.ts), for the page. */
export type {
  GoalBattle,
  GoalBattleEvent,
  GoalBattleSideView as GoalBattleSide,
  GoalBattleSummary,
  GoalCheck,
  GoalMessage,
} from "../../../worker/shared/goal-battle";
export {
  GOAL_SIDES,
  type GoalBattleState,
  type GoalEndedReason,
  type GoalJudgeMode,
  type GoalSide,
  type GoalWinner,
  type VoteChoice as GoalVoteChoice,
} from "../../../worker/shared/constants";
