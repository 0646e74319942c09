/** The api's shapes these pages read, named as the api names them. */
import type { components } from "../../api/schema";

type Schemas = components["schemas"];
export type TracePage = Schemas["TracePage"];
export type TraceView = Schemas["TraceView"];
export type TraceDetail = Schemas["TraceDetail"];
export type ObservationView = Schemas["ObservationView"];
export type ScoreView = Schemas["ScoreView"];
export type ScorePage = Schemas["ScorePage"];
export type SessionView = Schemas["SessionView"];
export type SessionPage = Schemas["SessionPage"];
export type SessionWithTraces = Schemas["SessionWithTraces"];
export type UserView = Schemas["UserView"];
export type UserPage = Schemas["UserPage"];
export type PageMeta = Schemas["PageMeta"];
export type ScoreSource = Schemas["ScoreSource"];
export type ScoreDataType = Schemas["ScoreDataType"];
