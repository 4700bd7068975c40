import { RouterProvider } from '@tanstack/react-router';
import { createStudioRouter } from './routing/routes.js';

const router = createStudioRouter();

/** The Studio: its routes live in `routing/routes.tsx`. */
export function App() {
  return <RouterProvider router={router} />;
}
