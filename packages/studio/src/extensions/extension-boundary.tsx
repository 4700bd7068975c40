import { Component, type ReactNode, Suspense } from 'react';

/**
 * One contribution on a page: loaded lazily, and if it throws, only its own place says so (the
 * page and the other contributions keep working).
 */
export function ExtensionFrame({
  name,
  children,
  fallback = null,
}: {
  name: string;
  children: ReactNode;
  /** Shown while the component's chunk loads (pages say "Loading…"; widgets show nothing). */
  fallback?: ReactNode;
}) {
  return (
    <Boundary name={name}>
      <Suspense fallback={fallback}>{children}</Suspense>
    </Boundary>
  );
}

class Boundary extends Component<{ name: string; children: ReactNode }, { error: Error | null }> {
  override state: { error: Error | null } = { error: null };

  static getDerivedStateFromError(error: Error) {
    return { error };
  }

  override componentDidCatch(error: Error) {
    console.error(`Studio: the contribution "${this.props.name}" failed`, error);
  }

  override render() {
    if (this.state.error) {
      return (
        <div className="notice notice-error" role="alert">
          {this.props.name} could not be shown: {this.state.error.message}
        </div>
      );
    }
    return this.props.children;
  }
}
