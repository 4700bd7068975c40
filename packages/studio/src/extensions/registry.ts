/**
 * The contract between the components modules may name and the code that renders them: a map from
 * a component id (`media.library`) to its lazily loaded component. The map itself
 * (`extensions/components.ts`) imports every page it lists, so it sits at the top with the routes and
 * is handed down through this context; nothing it lists imports it (docs/studio.md "Layers").
 */
import { type ComponentType, createContext, type LazyExoticComponent } from 'react';

// biome-ignore lint/suspicious/noExplicitAny: each kind passes its own props (extensions/props.ts)
export type AnyComponent = ComponentType<any>;

/** Every component this Studio build can show, by the id modules name it with. */
export type StudioComponents = Readonly<Record<string, LazyExoticComponent<AnyComponent>>>;

/** The build's components; empty until the signed-in frame provides them. */
export const StudioComponentsContext = createContext<StudioComponents>({});
